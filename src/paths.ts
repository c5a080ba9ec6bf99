import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'qrelay') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the qrelay package root above ${start}`);
    dir = parent;
  }
}

/** The repository root, whether running from `src/` (vitest, tsx) or `dist/src/`. */
export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export const paths = {
  root: packageRoot,
  templates: join(packageRoot, 'templates'),
  presets: join(packageRoot, 'hits'),
  samples: join(packageRoot, 'samples'),
  devdbSource: join(packageRoot, 'tools', 'devdb'),
  devdbBinary: join(packageRoot, 'tools', 'devdb', 'bin', 'devdb'),
  /** Compiled migrations sit beside the compiled sources; in source form, at the root. */
  migrations:
    existsSync(join(packageRoot, 'dist', 'migrations')) && import.meta.url.includes('/dist/')
      ? join(packageRoot, 'dist', 'migrations')
      : join(packageRoot, 'migrations'),
};
