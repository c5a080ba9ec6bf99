import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// zod 4 gives `.openapi()` only to schemas created after this ran, so every entry point
// (src/cli.ts, the test setup) imports this module before anything that makes a schema;
// src/api/openapi.ts imports it too, for programs that start from the app.
extendZodWithOpenApi(z);
