import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { UserError } from '../errors.js';
import { QUALIFICATION_DIR } from './presets.js';
import { MAX_QUESTION_BYTES, utf8Bytes } from './render.js';
import { createXmlParser, readXml } from './xml.js';

/**
 * Custom qualification tests (`hits/qualification/<name>.json` + a QuestionForm test and
 * an AnswerKey). The pipeline creates the qualification type per target from these and
 * maps the preset's symbolic `{"custom": "<name>"}` to the id it gets.
 */

export const QUESTION_FORM_NS = 'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd';
export const ANSWER_KEY_NS = 'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd';

const fileName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.xml$/, 'expected an .xml file name in the same folder');

export const QualificationTestMeta = z.strictObject({
  name: z.string().trim().min(1).max(128),
  description: z.string().trim().min(1).max(2000),
  keywords: z.string().max(1000).default(''),
  testDurationSeconds: z.number().int().min(30).max(31_536_000),
  retryDelaySeconds: z.number().int().min(0).optional(),
  /** The score (0-100) a worker needs; presets require it with GreaterThanOrEqualTo. */
  passScore: z.number().int().min(0).max(100),
  test: fileName,
  answerKey: fileName,
});
export type QualificationTestMeta = z.infer<typeof QualificationTestMeta>;

export interface QualificationTest extends Omit<QualificationTestMeta, 'test' | 'answerKey'> {
  /** The symbolic name presets use (the file's base name). */
  id: string;
  /** QuestionForm XML: CreateQualificationType's `Test`. */
  test: string;
  /** AnswerKey XML: CreateQualificationType's `AnswerKey`. */
  answerKey: string;
  questions: string[];
}

type XmlNode = Record<string, unknown>;

// preserveOrder keeps each element's children as a list, so the checks below can verify
// the element order the schemas prescribe
const parser = createXmlParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', trimValues: true });

interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

function toElements(nodes: XmlNode[]): El[] {
  const out: El[] = [];
  for (const node of nodes) {
    const name = Object.keys(node).find((k) => k !== ':@');
    if (!name || name === '#text') continue;
    const kids = (node[name] as XmlNode[]) ?? [];
    const text = kids.map((k) => (typeof k['#text'] === 'string' ? k['#text'] : '')).join('');
    out.push({ name, attrs: (node[':@'] as Record<string, string>) ?? {}, children: toElements(kids), text });
  }
  return out;
}

function parseXml(xml: string, what: string): El {
  const [root] = toElements(readXml(xml, parser, what) as XmlNode[]);
  if (!root) throw new UserError(`${what}: no root element`);
  return root;
}

/** Checks that `el`'s children follow `pattern` (name, min, max occurrences) in order. */
function expectChildren(el: El, pattern: ReadonlyArray<readonly [string, number, number]>, where: string): void {
  let i = 0;
  for (const [name, min, max] of pattern) {
    let n = 0;
    while (i < el.children.length && el.children[i]?.name === name) {
      i++;
      n++;
    }
    if (n < min || n > max) {
      const next = el.children[i];
      const found = n > max ? `${n}` : next ? `<${next.name}> instead` : 'none';
      throw new UserError(
        `${where}: expected ${min === max ? min : `${min} to ${max === Infinity ? 'any number of' : max}`} <${name}> at this place in <${el.name}>, found ${found}`,
      );
    }
  }
  if (i < el.children.length) throw new UserError(`${where}: unexpected <${el.children[i]?.name}> in <${el.name}>`);
}

const child = (el: El, name: string) => el.children.find((c) => c.name === name);
const CONTENT = new Set(['Title', 'Text', 'List', 'Binary', 'Application', 'EmbeddedBinary', 'FormattedContent']);

/**
 * Checks a QuestionForm test and its AnswerKey against the parts of MTurk's schemas that
 * matter for auto-scoring: namespaces, element order, unique question identifiers, every
 * keyed question and selection existing in the test, integer scores, and a percentage
 * mapping whose maximum is the best possible summed score. Returns the question ids.
 */
export function checkQualificationTest(
  testXml: string,
  answerKeyXml: string,
  where = 'qualification',
): { questions: string[]; maxScore: number } {
  for (const [xml, part] of [
    [testXml, 'test'],
    [answerKeyXml, 'answer key'],
  ] as const) {
    const bytes = utf8Bytes(xml);
    if (bytes > MAX_QUESTION_BYTES) throw new UserError(`${where} ${part}: ${bytes} bytes, over MTurk's limit of ${MAX_QUESTION_BYTES}`);
  }
  const form = parseXml(testXml, `${where} test`);
  if (form.name !== 'QuestionForm' || form.attrs.xmlns !== QUESTION_FORM_NS)
    throw new UserError(`${where} test: the root must be <QuestionForm xmlns="${QUESTION_FORM_NS}">`);
  const selections = new Map<string, Set<string>>();
  for (const part of form.children) {
    if (part.name === 'Overview') {
      const bad = part.children.find((c) => !CONTENT.has(c.name));
      if (bad) throw new UserError(`${where} test: <${bad.name}> is not content an <Overview> may hold`);
      continue;
    }
    if (part.name !== 'Question') throw new UserError(`${where} test: unexpected <${part.name}> in <QuestionForm>`);
    const id = child(part, 'QuestionIdentifier')?.text ?? '';
    const at = `${where} test, question ${JSON.stringify(id)}`;
    expectChildren(
      part,
      [
        ['QuestionIdentifier', 1, 1],
        ['DisplayName', 0, 1],
        ['IsRequired', 0, 1],
        ['QuestionContent', 1, 1],
        ['AnswerSpecification', 1, 1],
      ],
      at,
    );
    if (!/^\S{1,}$/.test(id) || selections.has(id)) throw new UserError(`${at}: question identifiers must be non-empty and unique`);
    const bad = child(part, 'QuestionContent')?.children.find((c) => !CONTENT.has(c.name));
    if (bad) throw new UserError(`${at}: <${bad.name}> is not content a <QuestionContent> may hold`);
    const spec = child(part, 'AnswerSpecification') as El;
    const selection = child(spec, 'SelectionAnswer');
    if (!selection) throw new UserError(`${at}: only SelectionAnswer questions can be scored by an AnswerKey`);
    expectChildren(
      selection,
      [
        ['MinSelectionCount', 0, 1],
        ['MaxSelectionCount', 0, 1],
        ['StyleSuggestion', 0, 1],
        ['Selections', 1, 1],
      ],
      at,
    );
    const ids = new Set<string>();
    for (const s of (child(selection, 'Selections') as El).children) {
      if (s.name !== 'Selection') throw new UserError(`${at}: unexpected <${s.name}> in <Selections>`);
      const sid = child(s, 'SelectionIdentifier')?.text ?? '';
      if (sid === '' || ids.has(sid)) throw new UserError(`${at}: selection identifiers must be non-empty and unique`);
      ids.add(sid);
    }
    selections.set(id, ids);
  }
  if (selections.size === 0) throw new UserError(`${where} test: no questions`);

  const key = parseXml(answerKeyXml, `${where} answer key`);
  if (key.name !== 'AnswerKey' || key.attrs.xmlns !== ANSWER_KEY_NS)
    throw new UserError(`${where} answer key: the root must be <AnswerKey xmlns="${ANSWER_KEY_NS}">`);
  expectChildren(
    key,
    [
      ['Question', 1, Infinity],
      ['QualificationValueMapping', 0, 1],
    ],
    `${where} answer key`,
  );
  let maxScore = 0;
  const keyed = new Set<string>();
  for (const q of key.children.filter((c) => c.name === 'Question')) {
    const id = child(q, 'QuestionIdentifier')?.text ?? '';
    const at = `${where} answer key, question ${JSON.stringify(id)}`;
    expectChildren(
      q,
      [
        ['QuestionIdentifier', 1, 1],
        ['AnswerOption', 1, Infinity],
        ['DefaultScore', 0, 1],
      ],
      at,
    );
    const known = selections.get(id);
    if (!known) throw new UserError(`${at}: the test has no such question`);
    if (keyed.has(id)) throw new UserError(`${at}: keyed twice`);
    keyed.add(id);
    let best = 0;
    for (const option of q.children.filter((c) => c.name === 'AnswerOption')) {
      expectChildren(
        option,
        [
          ['SelectionIdentifier', 1, Infinity],
          ['AnswerScore', 1, 1],
        ],
        at,
      );
      for (const s of option.children.filter((c) => c.name === 'SelectionIdentifier')) {
        if (!known.has(s.text)) throw new UserError(`${at}: the test has no selection ${JSON.stringify(s.text)}`);
      }
      const score = child(option, 'AnswerScore')?.text ?? '';
      if (!/^-?\d+$/.test(score)) throw new UserError(`${at}: AnswerScore must be a whole number, got ${JSON.stringify(score)}`);
      best = Math.max(best, Number(score));
    }
    maxScore += best;
  }
  const missing = [...selections.keys()].filter((id) => !keyed.has(id));
  if (missing.length > 0) throw new UserError(`${where} answer key: no answer for question(s) ${missing.join(', ')}`);
  const mapping = child(key, 'QualificationValueMapping');
  const percentage = mapping && child(mapping, 'PercentageMapping');
  if (!mapping || !percentage)
    throw new UserError(`${where} answer key: expected a <QualificationValueMapping><PercentageMapping> giving a 0-100 score`);
  expectChildren(mapping, [['PercentageMapping', 1, 1]], `${where} answer key`);
  const maximum = child(percentage, 'MaximumSummedScore')?.text ?? '';
  if (Number(maximum) !== maxScore)
    throw new UserError(
      `${where} answer key: MaximumSummedScore is ${JSON.stringify(maximum)} but the best possible summed score is ${maxScore}`,
    );
  return { questions: [...selections.keys()], maxScore };
}

/**
 * The 0-100 score an AnswerKey with a PercentageMapping gives to a worker's selections
 * (question id -> selection id), rounded to the nearest whole number.
 */
export function scoreQualificationTest(answerKeyXml: string, answers: Readonly<Record<string, string>>): number {
  const key = parseXml(answerKeyXml, 'answer key');
  let summed = 0;
  for (const q of key.children.filter((c) => c.name === 'Question')) {
    const id = child(q, 'QuestionIdentifier')?.text ?? '';
    const given = answers[id];
    const option = q.children.find(
      (c) => c.name === 'AnswerOption' && c.children.some((s) => s.name === 'SelectionIdentifier' && s.text === given),
    );
    const score = option ? child(option, 'AnswerScore')?.text : child(q, 'DefaultScore')?.text;
    summed += Number(score ?? 0);
  }
  const mapping = child(key, 'QualificationValueMapping');
  const maximum = Number(
    (mapping && child(mapping, 'PercentageMapping') && child(child(mapping, 'PercentageMapping') as El, 'MaximumSummedScore')?.text) ?? 0,
  );
  return maximum > 0 ? Math.round((100 * summed) / maximum) : summed;
}

/** Loads and checks `hits/qualification/<name>.json` with its test and answer key. */
export function loadQualificationTest(name: string, dir: string = QUALIFICATION_DIR): QualificationTest {
  const metaFile = join(dir, `${name}.json`);
  const shown = relative(process.cwd(), metaFile);
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name) || !existsSync(metaFile))
    throw new UserError(`no qualification test named ${JSON.stringify(name)} (expected ${shown})`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(metaFile, 'utf8'));
  } catch (err) {
    throw new UserError(`${shown}: not valid JSON: ${(err as Error).message}`);
  }
  const parsed = QualificationTestMeta.safeParse(json);
  if (!parsed.success) {
    throw new UserError(`${shown}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`);
  }
  const { test: testFile, answerKey: keyFile, ...meta } = parsed.data;
  const read = (file: string, field: string) => {
    const path = join(dir, file);
    if (!existsSync(path)) throw new UserError(`${shown}: ${field}: ${relative(process.cwd(), path)} does not exist`);
    return readFileSync(path, 'utf8');
  };
  const test = read(testFile, 'test');
  const answerKey = read(keyFile, 'answerKey');
  const { questions } = checkQualificationTest(test, answerKey, shown);
  return { ...meta, id: name, test, answerKey, questions };
}
