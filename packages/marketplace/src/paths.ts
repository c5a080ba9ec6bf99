import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: this module runs from `src/` (vitest, tsx) or `dist/`, both directly under it. */
export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export const paths = {
  root: packageRoot,
  templates: join(packageRoot, 'templates'),
};
