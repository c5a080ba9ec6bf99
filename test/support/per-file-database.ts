import '../../src/zod-openapi.js';
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { inject, expect } from 'vitest';

/**
 * Gives this test file its own database name on the shared test server, through the
 * same MONGODB_URI every qrelay component reads.
 */
const testPath = expect.getState().testPath ?? 'unknown';
const name = `t_${createHash('sha1').update(relative(process.cwd(), testPath)).digest('hex').slice(0, 12)}`;
process.env.MONGODB_URI = `${inject('mongoBaseUri')}${name}`;
process.env.QRELAY_TEST_DB = name;
