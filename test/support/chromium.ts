import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { paths } from '../../src/paths.js';

/**
 * The one place that finds and launches Chromium for the browser tests (and for
 * screenshots), in this order:
 *
 * 1. `QRELAY_CHROMIUM`: the executable to use (an error when it does not run);
 * 2. Debian's `chromium` on the PATH, when it runs;
 * 3. the `@sparticuz/chromium` devDependency: its bundled binary (with its fonts and
 *    SwiftShader libraries), decompressed once through the package's own `inflate` into
 *    `node_modules/.cache/qrelay-chromium/<version>/`, and reused from there.
 *
 * No browser test is ever skipped for want of a browser: one of the three always exists
 * after `npm install`.
 */

export interface ChromiumChoice {
  executablePath: string;
  source: 'QRELAY_CHROMIUM' | 'debian' | '@sparticuz/chromium';
}

const LAUNCH_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Whether `executable --version` runs (Debian's wrapper script exists but may lack its libraries). */
function runs(executable: string): boolean {
  try {
    execFileSync(executable, ['--version'], { stdio: 'ignore', timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

const require = createRequire(import.meta.url);

/** The @sparticuz/chromium package's directory and version. */
function sparticuzPackage(): { dir: string; version: string } {
  let entry: string;
  try {
    entry = require.resolve('@sparticuz/chromium');
  } catch {
    throw new Error(
      "no Chromium found: set QRELAY_CHROMIUM to a Chromium executable, install Debian's chromium, or run `npm install` (it installs the @sparticuz/chromium devDependency)",
    );
  }
  // the package's own package.json: its build directories hold one each (their module type) too
  const manifest = (dir: string) =>
    existsSync(join(dir, 'package.json'))
      ? (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string })
      : {};
  let dir = dirname(entry);
  while (manifest(dir).name !== '@sparticuz/chromium') {
    if (dirname(dir) === dir) throw new Error(`${entry}: no package.json of @sparticuz/chromium above it; reinstall it with \`npm ci\``);
    dir = dirname(dir);
  }
  return { dir, version: manifest(dir).version ?? 'unknown' };
}

/**
 * Decompresses @sparticuz/chromium's binary into the cache (once; later calls reuse it).
 * The package's `executablePath(bin)` inflates its set (the browser, its fonts, and
 * SwiftShader for software GL) into `os.tmpdir()`, so TMPDIR points it at a staging
 * directory that is renamed into place when complete: an interrupted extraction never
 * leaves a half-written browser behind, and two processes extracting at once both end
 * with a whole one.
 */
async function sparticuzChromium(): Promise<string> {
  const pkg = sparticuzPackage();
  const cacheDir = join(paths.root, 'node_modules', '.cache', 'qrelay-chromium', pkg.version);
  const executable = join(cacheDir, 'chromium');
  if (existsSync(executable)) return executable;
  const staging = `${cacheDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // the package's documented entry (its default export), the same across its majors
  const { default: packaged } = (await import('@sparticuz/chromium')) as { default: { executablePath(bin: string): Promise<string> } };
  const tmp = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await packaged.executablePath(join(pkg.dir, 'bin'));
  } finally {
    if (tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmp;
  }
  writeFileSync(join(staging, FONTS_CONF), fontsConfig(cacheDir));
  try {
    renameSync(staging, cacheDir);
  } catch (err) {
    // another process finished first: its copy is as good as ours
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(executable)) throw err;
  }
  return executable;
}

const FONTS_CONF = 'qrelay-fonts.conf';

/**
 * A fontconfig file for the bundled binary: the system's fonts when it has any, and the
 * package's own (its `fonts.conf` names Lambda's /tmp/fonts, which is not where they are).
 */
function fontsConfig(cacheDir: string): string {
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
    `  <dir>${join(cacheDir, 'fonts', 'fonts')}</dir>`,
    `  <cachedir>${join(cacheDir, 'fontconfig-cache')}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
}

let chosen: Promise<ChromiumChoice> | undefined;

/** The Chromium to use (see above); decided once per process. */
export function findChromium(): Promise<ChromiumChoice> {
  chosen ??= (async (): Promise<ChromiumChoice> => {
    const configured = process.env.QRELAY_CHROMIUM;
    if (configured !== undefined && configured !== '') {
      if (!runs(configured))
        throw new Error(
          `QRELAY_CHROMIUM=${configured} does not run (\`${configured} --version\` failed): point it at a Chromium executable, or unset it`,
        );
      return { executablePath: configured, source: 'QRELAY_CHROMIUM' };
    }
    const debian = onPath('chromium');
    if (debian && runs(debian)) return { executablePath: debian, source: 'debian' };
    return { executablePath: await sparticuzChromium(), source: '@sparticuz/chromium' };
  })();
  return chosen;
}

/** A headless Chromium through playwright-core. */
export async function launchChromium(): Promise<Browser> {
  const { executablePath, source } = await findChromium();
  const fontsConf = join(dirname(executablePath), FONTS_CONF);
  return chromium.launch({
    executablePath,
    args: LAUNCH_ARGS,
    // the bundled binary brings its own fonts: fontconfig reads them beside the system's
    ...(source === '@sparticuz/chromium' &&
      existsSync(fontsConf) && { env: { ...process.env, FONTCONFIG_FILE: fontsConf } as Record<string, string> }),
  });
}
