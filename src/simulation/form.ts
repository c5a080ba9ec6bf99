import { parse } from 'parse5';
import { attr, childNodes, elements, hasAttr, isElement, textContent, type HtmlElement, type HtmlNode } from '@qrelay/marketplace';

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
  /** Text inside the item that people do not perceive (`aria-hidden="true"`) but a copy of the item carries. */
  hiddenText?: string;
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
  kind: 'value' | 'radio' | 'checkbox' | 'select' | 'textarea' | 'timer' | 'event';
  /** An `event` control: the page event it counts (`data-sim-event`: copy, paste, focus-loss). */
  event?: string;
  value: string;
  checked: boolean;
  /** A select's chosen values (the first option when none is selected, as a browser does). */
  selected?: string[];
  itemKey?: string;
  /** A Crowd HTML Element: the name its output goes under (a radio button's own name; `name` is then its group's) and whether it outputs a number. */
  crowd?: { name: string; numeric: boolean };
}

export interface PageForm {
  controls: PageControl[];
  items: PageItem[];
  /** A <crowd-form>: its script submits assignmentId and taskAnswers (one JSON object of every output). */
  crowd: boolean;
}

export class PageFormError extends Error {}

const NOT_SUBMITTED = new Set(['submit', 'button', 'reset', 'image', 'file']);

/**
 * The page's form: the first that holds an item (`data-sim-key`), else the first. One walk
 * of the page, every form met on the way told whether an item lies inside it (walking each
 * form's elements again was a sixth of reading a HIT page).
 */
function formOf(doc: HtmlNode): HtmlElement {
  const nativeForms: HtmlElement[] = [];
  const crowdForms: HtmlElement[] = [];
  const withItem = new Set<HtmlElement>();
  const visit = (node: HtmlNode, around: readonly HtmlElement[]): void => {
    for (const c of childNodes(node)) {
      if (!isElement(c)) continue;
      if (around.length > 0 && hasAttr(c, 'data-sim-key')) for (const f of around) withItem.add(f);
      const isForm = c.tagName === 'form' || c.tagName === 'crowd-form';
      if (isForm) (c.tagName === 'form' ? nativeForms : crowdForms).push(c);
      visit(c, isForm ? [...around, c] : around);
    }
  };
  visit(doc, []);
  // a <crowd-form> page: the script builds the form a browser submits (mturk-page.ts)
  const forms = nativeForms.length > 0 ? nativeForms : crowdForms;
  const form = forms.find((f) => withItem.has(f)) ?? forms[0];
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

/** The group a crowd-radio-button belongs to (its crowd-radio-group, else itself alone). */
function crowdRadioGroup(groups: Map<HtmlElement, string>, group: HtmlElement | undefined, name: string): string {
  if (!group) return `crowd-radio-button:${name}`;
  let id = groups.get(group);
  if (id === undefined) {
    id = `crowd-radio-group:${groups.size + 1}`;
    groups.set(group, id);
  }
  return id;
}

const CROWD_VALUES = new Set(['crowd-input', 'crowd-text-area', 'crowd-slider']);

export function readPageForm(html: string): PageForm {
  const form = formOf(parse(html));
  const crowd = form.tagName === 'crowd-form';
  const controls: PageControl[] = [];
  const items = new Map<string, PageItem>();
  const groups = new Map<HtmlElement, string>();
  const addRadio = (control: PageControl, key: string | undefined) => {
    controls.push(control);
    const item = key !== undefined ? items.get(key) : undefined;
    if (item && (item.radioName === undefined || item.radioName === control.name)) {
      item.radioName = control.name;
      if (!item.values.includes(control.value)) item.values.push(control.value);
    }
  };
  const walk = (node: HtmlNode, itemKey: string | undefined, radioGroup: HtmlElement | undefined) => {
    if (!isElement(node)) return;
    const key = attr(node, 'data-sim-key') ?? itemKey;
    if (key !== undefined && key !== itemKey && !items.has(key)) items.set(key, { key, values: [] });
    const verdict = attr(node, 'data-sim-verdict');
    const argued = key !== undefined ? items.get(key) : undefined;
    if (verdict !== undefined && argued) {
      const quotes = [...elements(node)].filter((e) => e.tagName === 'q' || e.tagName === 'blockquote').length;
      (argued.arguments ??= []).push({ verdict, confidence: pageArgumentConfidence(textContent(node), quotes) });
    }
    if (attr(node, 'aria-hidden') === 'true' && argued) argued.hiddenText = `${argued.hiddenText ?? ''}${textContent(node)}`;
    const name = attr(node, 'name');
    const tag = node.tagName;
    const group = tag === 'crowd-radio-group' ? node : radioGroup;
    const base = { checked: false, ...(key !== undefined ? { itemKey: key } : {}) };
    if (crowd && name && !hasAttr(node, 'disabled') && tag.startsWith('crowd-')) {
      if (tag === 'crowd-radio-button') {
        const value = attr(node, 'value') ?? name;
        addRadio(
          {
            ...base,
            name: crowdRadioGroup(groups, group, name),
            kind: 'radio',
            value,
            checked: hasAttr(node, 'checked'),
            crowd: { name, numeric: false },
          },
          key,
        );
      } else if (tag === 'crowd-checkbox') {
        controls.push({
          ...base,
          name,
          kind: 'checkbox',
          value: attr(node, 'value') ?? 'on',
          checked: hasAttr(node, 'checked'),
          crowd: { name, numeric: false },
        });
      } else if (CROWD_VALUES.has(tag)) {
        const numeric = tag === 'crowd-slider' || attr(node, 'type') === 'number';
        const value = attr(node, 'value') ?? (tag === 'crowd-slider' ? (attr(node, 'min') ?? '0') : '');
        controls.push({ ...base, name, kind: tag === 'crowd-text-area' ? 'textarea' : 'value', value, crowd: { name, numeric } });
      }
    } else if (name && !hasAttr(node, 'disabled') && (tag === 'input' || tag === 'textarea' || tag === 'select')) {
      const native = { ...base, name };
      if (tag === 'textarea') controls.push({ ...native, kind: 'textarea', value: textContent(node) });
      else if (tag === 'select') controls.push({ ...native, kind: 'select', value: '', selected: selectValues(node) });
      else {
        const type = (attr(node, 'type') ?? 'text').toLowerCase();
        if (!NOT_SUBMITTED.has(type)) {
          const checked = hasAttr(node, 'checked');
          if (type === 'radio') addRadio({ ...native, kind: 'radio', value: attr(node, 'value') ?? 'on', checked }, key);
          else if (type === 'checkbox') controls.push({ ...native, kind: 'checkbox', value: attr(node, 'value') ?? 'on', checked });
          else if (hasAttr(node, 'data-sim-timer') && key !== undefined)
            controls.push({ ...native, kind: 'timer', value: attr(node, 'value') ?? '' });
          else if (attr(node, 'data-sim-event') !== undefined && key !== undefined)
            controls.push({ ...native, kind: 'event', event: attr(node, 'data-sim-event')!, value: attr(node, 'value') ?? '' });
          else controls.push({ ...native, kind: 'value', value: attr(node, 'value') ?? '' });
        }
      }
    }
    const inner = node.tagName === 'template' ? [] : node.childNodes;
    for (const c of inner) walk(c, key, group);
  };
  for (const c of form.childNodes) walk(c, undefined, undefined);
  return { controls, items: [...items.values()], crowd };
}

/** Marks where a page named its own assignment (pageTemplate); an invisible separator, which JSON leaves as it is. */
const OWN_MARK = '\u2063';

/**
 * A page with the places it names its own assignment (`own`: its submit address, which
 * carries the assignment's token, the assignment's and the worker's ids) replaced by marks
 * (pure): every assignment of a HIT shows the same template, so a simulation reads it once.
 */
export function pageTemplate(html: string, own: readonly string[]): string {
  return own.reduce((text, s, i) => (s ? text.split(s).join(`${OWN_MARK}${i}${OWN_MARK}`) : text), html);
}

/**
 * Whether a form read from a template would send or show a mark: anywhere but the
 * `assignmentId` control, which the filled-in form names itself (fillPageForm). Such a form
 * is read from the page as it is.
 */
export function carriesOwnMark(form: PageForm): boolean {
  return JSON.stringify({ ...form, controls: form.controls.filter((c) => c.name !== 'assignmentId') }).includes(OWN_MARK);
}

export interface Filling {
  assignmentId: string;
  /** The value chosen for an item's radio group (one of `item.values`). */
  answers: ReadonlyMap<string, string>;
  /** Milliseconds spent on each item. */
  timers: ReadonlyMap<string, number>;
  /** Per item, how many times each page event happened (what a browser's page script would have counted). */
  events?: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /** Per item, text typed or pasted into its first text area. */
  comments?: ReadonlyMap<string, string>;
}

/** The fields the filled-in form submits, in document order (a repeated name repeats); a crowd-form's as its script submits them. */
export function fillPageForm(form: PageForm, filling: Filling): [string, string][] {
  const fields = fillControls(form, filling);
  return form.crowd ? crowdFields(form, filling.assignmentId, fields) : fields;
}

/**
 * What <crowd-form> posts (the marketplace's crowd-html-elements.js): assignmentId and
 * taskAnswers, a JSON array of one object: a radio button or checkbox outputs
 * {"<value>": checked} under its name, an input its text (a number for type=number and
 * sliders), a native field its value.
 */
function crowdFields(form: PageForm, assignmentId: string, fields: [string, string][]): [string, string][] {
  const sent = new Set(fields.map(([name, value]) => `${name}\u0000${value}`));
  const answers: Record<string, unknown> = {};
  for (const c of form.controls) {
    if (c.crowd === undefined) continue;
    if (c.kind === 'radio' || c.kind === 'checkbox') answers[c.crowd.name] = { [c.value]: sent.has(`${c.name}\u0000${c.value}`) };
    else answers[c.crowd.name] = c.crowd.numeric && c.value !== '' ? Number(c.value) : c.value;
  }
  const crowdNames = new Set(form.controls.filter((c) => c.crowd !== undefined).map((c) => c.name));
  for (const [name, value] of fields) if (!crowdNames.has(name) && name !== 'assignmentId') answers[name] = value;
  return [
    ['assignmentId', assignmentId],
    ['taskAnswers', JSON.stringify([answers])],
  ];
}

function fillControls(form: PageForm, filling: Filling): [string, string][] {
  const answerGroups = new Map(form.items.filter((i) => i.radioName !== undefined).map((i) => [`${i.key}\u0000${i.radioName}`, i.key]));
  const out: [string, string][] = [];
  const commented = new Set<string>();
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
      case 'event': {
        const n = filling.events?.get(c.itemKey!)?.[c.event!];
        out.push([c.name, n === undefined ? c.value : String(n)]);
        break;
      }
      case 'textarea': {
        const written = c.itemKey !== undefined && !commented.has(c.itemKey) ? filling.comments?.get(c.itemKey) : undefined;
        if (c.itemKey !== undefined) commented.add(c.itemKey);
        out.push([c.name, written ?? c.value]);
        break;
      }
      default:
        out.push([c.name, c.value]);
    }
  }
  return out;
}
