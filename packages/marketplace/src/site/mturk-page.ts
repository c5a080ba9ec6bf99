import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'parse5';
import { attr, elements, escapeHtml, type HtmlElement, type HtmlNode } from '../html-tree.js';
import { SizedCache, stringBytes } from '../store/sized-cache.js';
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
 * <turkSubmitTo>/mturk/externalSubmit, and a form's `assignmentId` input is given the
 * assignment's id (what MTurk pages' scripts copy from the frame's URL): so a page whose
 * form names MTurk's address works with scripts off too. Everything else stays as written.
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

const MIGHT_NAME_MTURK = /externalHIT_v1\.js|crowd-html-elements\.js|mturk\.com|assignmentId/i;

/** A place in a page to rewrite: an MTurk script's address, MTurk's submission address, or a form's assignment id. */
interface Spot {
  start: number;
  end: number;
  attr: string;
  /** The script of ours it names. */
  script?: MturkScriptName;
  /** The value of a form's `assignmentId` input (`end === start`: the input has no `value` to replace). */
  assignmentId?: true;
}

/**
 * An element that may hold spots (a `<script src>` of MTurk's, a form or `formaction` naming
 * MTurk's submission address, an `assignmentId` input): what it is (`sign`), whether it sits in
 * a form, and its spots when its tree was parsed with source locations.
 */
interface Candidate {
  sign: string;
  inForm: boolean;
  spots: Spot[];
}

/** The candidates of a parsed page, in document order (pure). */
function candidatesOf(doc: HtmlNode): Candidate[] {
  const out: Candidate[] = [];
  const forms = new Set<HtmlNode>();
  for (const el of elements(doc)) {
    if (el.tagName === 'form') forms.add(el);
    const at = el.sourceCodeLocation?.attrs;
    const signs: string[] = [];
    const spots: Spot[] = [];
    let inAForm = false;
    if (el.tagName === 'input' && attr(el, 'name') === 'assignmentId') {
      inAForm = inForm(el, forms);
      signs.push(`assignmentId=${attr(el, 'value') ?? ''}`);
      const value = at?.value;
      const tag = el.sourceCodeLocation?.startTag;
      if (inAForm && value) spots.push({ start: value.startOffset, end: value.endOffset, attr: 'value', assignmentId: true });
      // `<input` then a space: the new attribute goes right after the tag's name
      else if (inAForm && tag) spots.push({ start: tag.startOffset + 6, end: tag.startOffset + 6, attr: 'value', assignmentId: true });
    }
    for (const a of el.attrs) {
      const loc = at?.[a.name];
      const spot = loc && { start: loc.startOffset, end: loc.endOffset, attr: a.name };
      let script: MturkScriptName | undefined;
      if (el.tagName === 'script' && a.name === 'src' && (script = mturkScriptOf(a.value))) {
        signs.push(`src=${a.value}`);
        if (spot) spots.push({ ...spot, script });
      } else if (
        (a.name === 'action' && (el.tagName === 'form' || el.tagName === 'crowd-form') && isMturkSubmitAddress(a.value)) ||
        (a.name === 'formaction' && isMturkSubmitAddress(a.value))
      ) {
        signs.push(`${a.name}=${a.value}`);
        if (spot) spots.push(spot);
      }
    }
    if (signs.length > 0) out.push({ sign: `${el.tagName} ${signs.join(' ')}`, inForm: inAForm, spots });
  }
  return out;
}

/** How much of a page's start is parsed with locations (where its spots usually lie) before the whole of it is. */
const FIRST_PREFIX = 8192;

/**
 * Where `html` names MTurk's scripts and submission address (pure; found by parsing it).
 * Locating every node of a page doubles the cost of parsing it (a HIT page of 46 KB: about
 * 4 ms), and a page's spots usually sit near its top (a form's action and its assignmentId
 * input). So a long page is parsed whole without locations, to learn its candidates, and
 * only its first FIRST_PREFIX characters with locations: parsing the start of a page builds
 * the same elements from it as parsing the whole does (the same tokens, and an element once
 * made is never removed), so when the start holds all of the whole's candidates, alike in
 * order, kind and form, their locations are the start's. Otherwise (a spot further down, or
 * an element that misnested markup moved later) the page is parsed whole with locations.
 */
function spotsOf(html: string): Spot[] {
  const located = (text: string) => candidatesOf(parse(text, { sourceCodeLocationInfo: true }));
  let found: Candidate[];
  if (html.length <= FIRST_PREFIX) found = located(html);
  else {
    const whole = candidatesOf(parse(html));
    const start = whole.length > 0 ? located(html.slice(0, FIRST_PREFIX)) : [];
    const same = start.length === whole.length && start.every((c, i) => c.sign === whole[i]!.sign && c.inForm === whole[i]!.inForm);
    found = same ? start : located(html);
  }
  // from the end, so that each splice leaves the offsets before it as they were
  return found.flatMap((c) => c.spots).sort((x, y) => y.start - x.start);
}

/**
 * The spots of the pages served lately, by page. A HIT's frame is opened once per assignment
 * (and every assignment of a HIT shows the same page): parsing a 46 KB page each time was a
 * share of every assignment's cost in a 4,056-case simulation. Bounded by the pages' size.
 */
const spotCache = new SizedCache<{ size: number; spots: Spot[] }>(16 * 1024 * 1024, (v) => v.size);

function cachedSpots(html: string): Spot[] {
  const kept = spotCache.get(html);
  if (kept) return kept.spots;
  const spots = spotsOf(html);
  // the page is the key: its length is most of what an entry holds
  spotCache.set(html, { size: stringBytes(html), spots });
  return spots;
}

/** Spots (and entries) a PageSpots holds at most: a few MB. */
const PAGE_SPOTS_KEPT = 65_536;

/**
 * The spots of pages by a key that names one page for good (a HIT's id: its question never
 * changes), for the frames of one marketplace: an entry holds a few offsets, not the page,
 * so that every HIT of a batch of thousands keeps its spots (the cache by page, bounded
 * by the pages' size, holds some 180 of the paper's pages: a HIT whose assignments were
 * opened further apart than that was parsed again). The page's length is kept too: a key
 * whose page is not this one's (never, but checked) is located anew.
 */
export class PageSpots {
  private readonly kept = new SizedCache<{ length: number; spots: Spot[] }>(PAGE_SPOTS_KEPT, (v) => 1 + v.spots.length);

  of(key: string, html: string): Spot[] {
    const kept = this.kept.get(key);
    if (kept?.length === html.length) return kept.spots;
    const spots = spotsOf(html);
    this.kept.set(key, { length: html.length, spots });
    return spots;
  }
}

/** Whether `el` sits inside one of `forms` (the forms met before it in document order). */
function inForm(el: HtmlElement, forms: ReadonlySet<HtmlNode>): boolean {
  for (let node: HtmlNode | null = el.parentNode; node; node = 'parentNode' in node ? node.parentNode : null)
    if (forms.has(node)) return true;
  return false;
}

/**
 * The page with MTurk's script addresses pointing at `origin`'s copies, MTurk's submission
 * address at `submitUrl` and a form's `assignmentId` input holding `assignmentId` (each
 * left alone when not given: a preview submits nothing). `kept`: where the page's spots are
 * kept under a key that names this page for good (a HIT's id), rather than by the page.
 */
export function rewriteMturkPage(
  html: string,
  opts: { origin: string; submitUrl?: string; assignmentId?: string },
  kept?: { spots: PageSpots; key: string },
): string {
  // most pages name none of MTurk's addresses: they are served without parsing (a frame is opened per assignment)
  if (!MIGHT_NAME_MTURK.test(html)) return html;
  let out = html;
  for (const s of kept ? kept.spots.of(kept.key, html) : cachedSpots(html)) {
    const value = s.script ? `${opts.origin}${mturkScriptPath(s.script)}` : s.assignmentId ? opts.assignmentId : opts.submitUrl;
    if (value === undefined) continue;
    const set = `${s.attr}="${escapeHtml(value)}"`;
    out = out.slice(0, s.start) + (s.start === s.end ? ` ${set}` : set) + out.slice(s.end);
  }
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
