/**
 * A HIT page read as a person's browser reads it (pure): the one form, where it posts, its
 * controls in document order, and the judged items the page contract marks
 * (docs/hit-page-contract.md): an element with `data-sim-key`, its yes/no radio group, the
 * hidden timer and page-event inputs the page's script would fill, its text as a copy of
 * it carries. What the bots send back is what a browser would post: every control's value,
 * checked boxes and radios only, nothing disabled.
 */
import { attr, elements, hasAttr, textContent, type HtmlElement } from '@qrelay/marketplace';
import { parse } from 'parse5';

export type PageEvent = 'copy' | 'paste' | 'focus-loss';

interface Control {
  name: string;
  kind: 'value' | 'radio' | 'checkbox' | 'textarea';
  value: string;
  checked: boolean;
  /** The judged item it sits in. */
  item?: string;
  timer?: boolean;
  event?: PageEvent;
}

export interface PageItem {
  key: string;
  /** The name of its yes/no radio group. */
  answer: string;
  /** Its text as a copy of the whole item carries it (hidden text included). */
  text: string;
  /** Its optional comment box, if any. */
  comment?: string;
}

export interface HitForm {
  action: string;
  method: 'get' | 'post';
  items: PageItem[];
  controls: Control[];
}

/** What a bot did on one item: its answer, the time the page's timer would have counted, the page events, a comment. */
export interface ItemWork {
  answer: 'yes' | 'no';
  ms: number;
  events: Record<PageEvent, number>;
  comment?: string;
}

const EVENTS: readonly string[] = ['copy', 'paste', 'focus-loss'];

function itemOf(el: HtmlElement, keyed: ReadonlyMap<HtmlElement, string>): string | undefined {
  for (let p: HtmlElement | undefined = el; p; p = p.parentNode && 'tagName' in p.parentNode ? p.parentNode : undefined) {
    const key = keyed.get(p);
    if (key !== undefined) return key;
  }
  return undefined;
}

/** Reads the page's form; `where` names the page in errors. */
export function readHitForm(html: string, where: string): HitForm {
  const doc = parse(html);
  const all = [...elements(doc)];
  const forms = all.filter((e) => e.tagName === 'form');
  if (forms.length !== 1)
    throw new Error(`bench crowd-external: ${where} holds ${forms.length} forms, not one; a bot reads only pages with one <form>`);
  const form = forms[0]!;
  const keyed = new Map<HtmlElement, string>();
  for (const e of elements(form)) {
    const key = attr(e, 'data-sim-key');
    if (key !== undefined) keyed.set(e, key);
  }
  const controls: Control[] = [];
  for (const e of elements(form)) {
    const name = attr(e, 'name');
    if (name === undefined || name === '' || hasAttr(e, 'disabled')) continue;
    const item = itemOf(e, keyed);
    const base = { name, ...(item !== undefined && { item }) };
    if (e.tagName === 'textarea') controls.push({ ...base, kind: 'textarea', value: textContent(e), checked: false });
    else if (e.tagName === 'select') {
      const options = [...elements(e)].filter((o) => o.tagName === 'option');
      const chosen = options.find((o) => hasAttr(o, 'selected')) ?? options[0];
      controls.push({ ...base, kind: 'value', value: chosen ? (attr(chosen, 'value') ?? textContent(chosen)) : '', checked: false });
    } else if (e.tagName === 'input') {
      const type = (attr(e, 'type') ?? 'text').toLowerCase();
      if (type === 'submit' || type === 'button' || type === 'image' || type === 'reset' || type === 'file') continue;
      const value = attr(e, 'value') ?? (type === 'radio' || type === 'checkbox' ? 'on' : '');
      const event = attr(e, 'data-sim-event');
      controls.push({
        ...base,
        kind: type === 'radio' ? 'radio' : type === 'checkbox' ? 'checkbox' : 'value',
        value,
        checked: hasAttr(e, 'checked'),
        ...(hasAttr(e, 'data-sim-timer') && { timer: true }),
        ...(event !== undefined && EVENTS.includes(event) && { event: event as PageEvent }),
      });
    }
  }
  const items: PageItem[] = [];
  for (const [el, key] of keyed) {
    const mine = controls.filter((c) => c.item === key);
    const groups = new Set(mine.filter((c) => c.kind === 'radio').map((c) => c.name));
    const answer = [...groups].find((g) => {
      const values = mine.filter((c) => c.name === g).map((c) => c.value);
      return values.includes('yes') && values.includes('no');
    });
    if (answer === undefined) throw new Error(`bench crowd-external: ${where}: item ${key} has no yes/no radio group`);
    const comment = mine.find((c) => c.kind === 'textarea')?.name;
    items.push({ key, answer, text: textContent(el).replace(/\s+/g, ' ').trim(), ...(comment !== undefined && { comment }) });
  }
  if (items.length === 0) throw new Error(`bench crowd-external: ${where} marks no judged item (data-sim-key)`);
  const method = (attr(form, 'method') ?? 'get').toLowerCase() === 'post' ? 'post' : 'get';
  return { action: attr(form, 'action') ?? '', method, items, controls };
}

/** The fields a browser posts once the bot has done `work` on every item (in document order). */
export function formFields(form: HitForm, work: ReadonlyMap<string, ItemWork>): [string, string][] {
  const fields: [string, string][] = [];
  for (const c of form.controls) {
    const w = c.item !== undefined ? work.get(c.item) : undefined;
    const item = c.item !== undefined ? form.items.find((i) => i.key === c.item) : undefined;
    if (w && item && c.kind === 'radio' && c.name === item.answer) {
      if (c.value === w.answer) fields.push([c.name, c.value]);
    } else if (w && c.timer) fields.push([c.name, String(Math.round(w.ms))]);
    else if (w && c.event) fields.push([c.name, String(w.events[c.event])]);
    else if (w && item && c.kind === 'textarea' && c.name === item.comment) fields.push([c.name, w.comment ?? c.value]);
    else if (c.kind === 'radio' || c.kind === 'checkbox') {
      if (c.checked) fields.push([c.name, c.value]);
    } else fields.push([c.name, c.value]);
  }
  return fields;
}
