import { parse } from 'parse5';
import { attr, elements, hasAttr, isElement, textContent, type HtmlElement, type HtmlNode } from '../html-tree.js';

/**
 * A HIT page's form as a simulated worker reads it (docs/hit-page-contract.md): the
 * controls a browser would submit, in document order, and the judged items, each an
 * element with `data-sim-key` holding one radio group (the answer) and maybe a hidden
 * `data-sim-timer` input. Filling it in is what a person does: pick one value per item,
 * leave the optional extras as they are, and submit every field the browser would.
 */

export interface PageItem {
  key: string;
  /** The item's answer: its first radio group. */
  radioName?: string;
  values: string[];
  /** What the page argues about the item (`data-sim-verdict` elements: a verdict and the text behind it); empty when no debate is shown. */
  arguments?: PageArgument[];
}

export interface PageArgument {
  verdict: string;
  /** How sure the text sounds to a reader (pageArgumentConfidence). */
  confidence: number;
}

const HEDGES = /\b(may|might|perhaps|possibly|unclear|seems?|could|arguably|likely|probably|uncertain|appears?)\b/gi;
const ASSERTIONS = /\b(clearly|directly|explicitly|states?|names?|gives?|keep my label|certainly)\b/gi;

/** How confident an argument sounds: assertions and quoted evidence up, hedges down (pure). */
export function pageArgumentConfidence(text: string, quotes: number): number {
  return quotes + 0.5 * (text.match(ASSERTIONS)?.length ?? 0) - (text.match(HEDGES)?.length ?? 0);
}

export interface PageControl {
  name: string;
  kind: 'value' | 'radio' | 'checkbox' | 'select' | 'textarea' | 'timer';
  value: string;
  checked: boolean;
  /** A select's chosen values (the first option when none is selected, as a browser does). */
  selected?: string[];
  itemKey?: string;
}

export interface PageForm {
  controls: PageControl[];
  items: PageItem[];
}

export class PageFormError extends Error {}

const NOT_SUBMITTED = new Set(['submit', 'button', 'reset', 'image', 'file']);

function formOf(doc: HtmlNode): HtmlElement {
  const forms = [...elements(doc)].filter((e) => e.tagName === 'form');
  const withItems = forms.find((f) => [...elements(f)].some((e) => hasAttr(e, 'data-sim-key')));
  const form = withItems ?? forms[0];
  if (!form) throw new PageFormError('the HIT page has no <form> to fill in');
  return form;
}

function selectValues(select: HtmlElement): string[] {
  const options = [...elements(select)].filter((e) => e.tagName === 'option' && !hasAttr(e, 'disabled'));
  const value = (o: HtmlElement) => attr(o, 'value') ?? textContent(o).trim();
  const chosen = options.filter((o) => hasAttr(o, 'selected')).map(value);
  if (chosen.length > 0 || hasAttr(select, 'multiple')) return chosen;
  return options.length > 0 ? [value(options[0]!)] : [];
}

export function readPageForm(html: string): PageForm {
  const form = formOf(parse(html));
  const controls: PageControl[] = [];
  const items = new Map<string, PageItem>();
  const walk = (node: HtmlNode, itemKey: string | undefined) => {
    if (!isElement(node)) return;
    const key = attr(node, 'data-sim-key') ?? itemKey;
    if (key !== undefined && key !== itemKey && !items.has(key)) items.set(key, { key, values: [] });
    const verdict = attr(node, 'data-sim-verdict');
    const argued = key !== undefined ? items.get(key) : undefined;
    if (verdict !== undefined && argued) {
      const quotes = [...elements(node)].filter((e) => e.tagName === 'q' || e.tagName === 'blockquote').length;
      (argued.arguments ??= []).push({ verdict, confidence: pageArgumentConfidence(textContent(node), quotes) });
    }
    const name = attr(node, 'name');
    const tag = node.tagName;
    if (name && !hasAttr(node, 'disabled') && (tag === 'input' || tag === 'textarea' || tag === 'select')) {
      const base = { name, checked: false, ...(key !== undefined ? { itemKey: key } : {}) };
      if (tag === 'textarea') controls.push({ ...base, kind: 'textarea', value: textContent(node) });
      else if (tag === 'select') controls.push({ ...base, kind: 'select', value: '', selected: selectValues(node) });
      else {
        const type = (attr(node, 'type') ?? 'text').toLowerCase();
        if (!NOT_SUBMITTED.has(type)) {
          const checked = hasAttr(node, 'checked');
          if (type === 'radio') {
            const value = attr(node, 'value') ?? 'on';
            controls.push({ ...base, kind: 'radio', value, checked });
            const item = key !== undefined ? items.get(key) : undefined;
            if (item && (item.radioName === undefined || item.radioName === name)) {
              item.radioName = name;
              if (!item.values.includes(value)) item.values.push(value);
            }
          } else if (type === 'checkbox') controls.push({ ...base, kind: 'checkbox', value: attr(node, 'value') ?? 'on', checked });
          else if (hasAttr(node, 'data-sim-timer') && key !== undefined) controls.push({ ...base, kind: 'timer', value: attr(node, 'value') ?? '' });
          else controls.push({ ...base, kind: 'value', value: attr(node, 'value') ?? '' });
        }
      }
    }
    const inner = node.tagName === 'template' ? [] : node.childNodes;
    for (const c of inner) walk(c, key);
  };
  for (const c of form.childNodes) walk(c, undefined);
  return { controls, items: [...items.values()] };
}

export interface Filling {
  assignmentId: string;
  /** The value chosen for an item's radio group (one of `item.values`). */
  answers: ReadonlyMap<string, string>;
  /** Milliseconds spent on each item. */
  timers: ReadonlyMap<string, number>;
}

/** The fields the filled-in form submits, in document order (a repeated name repeats). */
export function fillPageForm(form: PageForm, filling: Filling): [string, string][] {
  const answerGroups = new Map(form.items.filter((i) => i.radioName !== undefined).map((i) => [`${i.key}\u0000${i.radioName}`, i.key]));
  const out: [string, string][] = [];
  for (const c of form.controls) {
    if (c.name === 'assignmentId') {
      out.push([c.name, filling.assignmentId]);
      continue;
    }
    switch (c.kind) {
      case 'radio': {
        const itemKey = c.itemKey !== undefined ? answerGroups.get(`${c.itemKey}\u0000${c.name}`) : undefined;
        if (itemKey !== undefined) {
          if (filling.answers.get(itemKey) === c.value) out.push([c.name, c.value]);
        } else if (c.checked) out.push([c.name, c.value]);
        break;
      }
      case 'checkbox':
        if (c.checked) out.push([c.name, c.value]);
        break;
      case 'select':
        for (const v of c.selected ?? []) out.push([c.name, v]);
        break;
      case 'timer':
        out.push([c.name, String(Math.round(filling.timers.get(c.itemKey!) ?? 0))]);
        break;
      default:
        out.push([c.name, c.value]);
    }
  }
  return out;
}
