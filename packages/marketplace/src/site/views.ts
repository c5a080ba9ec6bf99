import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { paths } from '../paths.js';

/**
 * The worker site's handlebars templates (packages/marketplace/templates/), compiled once. Every
 * value goes through handlebars' escaping; the only unescaped inserts are our own
 * rendered HTML (page bodies, sanitised FormattedContent, our stylesheet and script).
 */

export const SITE_TEMPLATE_DIR = paths.templates;

const PAGES = ['login', 'hits', 'hit', 'work', 'assignment', 'assignments', 'qualifications', 'test', 'test-result', 'error'] as const;
export type PageName = (typeof PAGES)[number];

/** What the frame's "submitted" page runs: tell the site page around it to move on. */
export const SUBMITTED_SCRIPT = "parent.postMessage({ type: 'qrelay:submitted' }, '*');";

export interface SiteViews {
  page(
    name: PageName,
    view: object,
    layout: { title: string; worker?: { workerId: string; displayName: string }; csrf: string; notice?: string },
  ): string;
  frameForm(view: object): string;
  frameMessage(view: { heading: string; message: string; submitted?: boolean }): string;
  staticFile(name: string): { body: string; type: string } | undefined;
  /** The CSP source of SUBMITTED_SCRIPT. */
  submittedScriptHash: string;
}

let cached: SiteViews | undefined;

export function siteViews(dir: string = SITE_TEMPLATE_DIR): SiteViews {
  if (cached && dir === SITE_TEMPLATE_DIR) return cached;
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const hbs = Handlebars.create();
  hbs.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  for (const partial of ['question-form', 'content-block']) hbs.registerPartial(partial, hbs.compile(read(`${partial}.hbs`)));
  const layout = hbs.compile(read('layout.hbs'));
  const pages = new Map(PAGES.map((name) => [name, hbs.compile(read(`${name}.hbs`))]));
  const frameForm = hbs.compile(read('frame-form.hbs'));
  const frameMessage = hbs.compile(read('frame-message.hbs'));
  const frameStyle = read('static/frame.css');
  const statics = new Map([
    ['site.css', { body: read('static/site.css'), type: 'text/css; charset=utf-8' }],
    ['site.js', { body: read('static/site.js'), type: 'text/javascript; charset=utf-8' }],
  ]);
  const views: SiteViews = {
    page(name, view, l) {
      const body = pages.get(name)!({ ...view, csrf: l.csrf });
      return layout({ ...l, body: new Handlebars.SafeString(body) });
    },
    frameForm: (view) => frameForm({ ...view, style: frameStyle }),
    frameMessage: (view) => frameMessage({ ...view, style: frameStyle, ...(view.submitted ? { script: SUBMITTED_SCRIPT } : {}) }),
    staticFile: (name) => statics.get(name),
    submittedScriptHash: `'sha256-${createHash('sha256').update(SUBMITTED_SCRIPT).digest('base64')}'`,
  };
  if (dir === SITE_TEMPLATE_DIR) cached = views;
  return views;
}
