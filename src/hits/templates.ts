import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { paths } from '../paths.js';

/** The compiled HIT page: the thin I/O part of rendering (read and compile once). */
export interface HitTemplates {
  page: Handlebars.TemplateDelegate;
  style: string;
  script: string;
  /** The page's Content-Security-Policy: no network, only our own inline style and script. */
  csp: string;
}

export const HIT_TEMPLATE_DIR = join(paths.templates, 'hit');

const cspHash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The page's script as every HIT page carries it: without whole-line comments, indentation
 * and blank lines. Each byte of the page counts against MTurk's 65,535 (a long case needs
 * them); page.js has no string or template literal spanning lines.
 */
export const compactScript = (source: string): string =>
  source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .join('\n');

const cache = new Map<string, HitTemplates>();

export function loadHitTemplates(dir: string = HIT_TEMPLATE_DIR): HitTemplates {
  const cached = cache.get(dir);
  if (cached) return cached;
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const hbs = Handlebars.create();
  // strict: a field missing from the view is a bug, not an empty string;
  // preventIndent: partials must not re-indent the pre-wrapped chunk text.
  const options = { strict: true, preventIndent: true };
  for (const partial of ['item', 'debate', 'guideline']) hbs.registerPartial(partial, hbs.compile(read(`${partial}.hbs`), options));
  const style = read('page.css').trim();
  const script = compactScript(read('page.js'));
  const csp = [
    "default-src 'none'",
    `style-src ${cspHash(style)}`,
    `script-src ${cspHash(script)}`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    'form-action http: https:',
  ].join('; ');
  const templates: HitTemplates = { page: hbs.compile(read('page.hbs'), options), style, script, csp };
  cache.set(dir, templates);
  return templates;
}
