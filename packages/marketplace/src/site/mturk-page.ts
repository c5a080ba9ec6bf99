import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'parse5';
import { elements, escapeHtml } from '../html-tree.js';
import { SITE_TEMPLATE_DIR } from './views.js';

/**
 * HIT pages written for MTurk, made to work here (pure, but for reading the two scripts).
 * MTurk pages load MTurk's scripts from AWS: externalHIT_v1.js (turkGetParam,
 * turkSetAssignmentID, ...) and crowd-html-elements.js (<crowd-form> and its inputs). The
 * HIT frame may load nothing from elsewhere (its CSP), so the marketplace serves
 * compatible versions of both (packages/marketplace/templates/static/mturk/, written here from the
 * documented behaviour) at /mturk/<name>, and the page's <script src> addresses are
 * rewritten to them. A form whose action is MTurk's own externalSubmit
 * (www.mturk.com or workersandbox.mturk.com) is pointed at this assignment's
 * <turkSubmitTo>/mturk/externalSubmit. Everything else of the page stays as written.
 */

export const MTURK_SCRIPT_NAMES = ['externalHIT_v1.js', 'crowd-html-elements.js'] as const;
export type MturkScriptName = (typeof MTURK_SCRIPT_NAMES)[number];

/** Where the marketplace serves them. */
export const mturkScriptPath = (name: MturkScriptName): string => `/mturk/${name}`;

const AWS_HOSTS = /(^|\.)(amazonaws\.com|crowd\.aws|mturk\.com)$/i;
const MTURK_SUBMIT_HOSTS = new Set(['www.mturk.com', 'mturk.com', 'workersandbox.mturk.com']);

function absolute(url: string): URL | undefined {
  try {
    return new URL(url.trim(), 'https://host.invalid/');
  } catch {
    return undefined;
  }
}

/** The script of ours that replaces `src`, when it is one of MTurk's. */
export function mturkScriptOf(src: string): MturkScriptName | undefined {
  const u = absolute(src);
  if (!u || !AWS_HOSTS.test(u.hostname)) return undefined;
  const base = u.pathname.slice(u.pathname.lastIndexOf('/') + 1);
  return MTURK_SCRIPT_NAMES.find((n) => n === base);
}

export function isMturkSubmitAddress(action: string): boolean {
  const u = absolute(action);
  return u !== undefined && MTURK_SUBMIT_HOSTS.has(u.hostname.toLowerCase()) && u.pathname.replace(/\/+$/, '') === '/mturk/externalSubmit';
}

const MIGHT_NAME_MTURK = /externalHIT_v1\.js|crowd-html-elements\.js|mturk\.com/i;

interface Splice {
  start: number;
  end: number;
  text: string;
}

/**
 * The page with MTurk's script addresses pointing at `origin`'s copies and MTurk's
 * submission address at `submitUrl` (left alone when there is none: a preview submits nothing).
 */
export function rewriteMturkPage(html: string, opts: { origin: string; submitUrl?: string }): string {
  // most pages name none of MTurk's addresses: they are served without parsing (a frame is opened per assignment)
  if (!MIGHT_NAME_MTURK.test(html)) return html;
  const doc = parse(html, { sourceCodeLocationInfo: true });
  const splices: Splice[] = [];
  for (const el of elements(doc)) {
    const at = el.sourceCodeLocation?.attrs;
    if (!at) continue;
    for (const a of el.attrs) {
      const loc = at[a.name];
      if (!loc) continue;
      let value: string | undefined;
      if (el.tagName === 'script' && a.name === 'src') {
        const name = mturkScriptOf(a.value);
        if (name) value = `${opts.origin}${mturkScriptPath(name)}`;
      } else if (
        opts.submitUrl !== undefined &&
        a.name === 'action' &&
        (el.tagName === 'form' || el.tagName === 'crowd-form') &&
        isMturkSubmitAddress(a.value)
      ) {
        value = opts.submitUrl;
      } else if (opts.submitUrl !== undefined && a.name === 'formaction' && isMturkSubmitAddress(a.value)) {
        value = opts.submitUrl;
      }
      if (value !== undefined) splices.push({ start: loc.startOffset, end: loc.endOffset, text: `${a.name}="${escapeHtml(value)}"` });
    }
  }
  let out = html;
  for (const s of splices.sort((a, b) => b.start - a.start)) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

const scripts = new Map<MturkScriptName, string>();

/** The body of one of our compatible scripts (read once). */
export function mturkScript(name: string): string | undefined {
  const known = MTURK_SCRIPT_NAMES.find((n) => n === name);
  if (!known) return undefined;
  let body = scripts.get(known);
  if (body === undefined) {
    body = readFileSync(join(SITE_TEMPLATE_DIR, 'static', 'mturk', known), 'utf8');
    scripts.set(known, body);
  }
  return body;
}
