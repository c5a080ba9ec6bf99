import type { QuestionForm } from './question-form.js';
import { checkXmlSize } from './question-xml.js';
import { child, childText, children, parseError, parseXml, rootOf, text } from './xml.js';

/**
 * The AnswerKey of a qualification test: per question, the score of each exact
 * combination of selections (the worker must select those and no others) and a default
 * score; then an optional mapping from the summed score to the qualification value.
 */

export interface AnswerOption {
  selections: string[];
  score: number;
}

export interface KeyQuestion {
  id: string;
  options: AnswerOption[];
  defaultScore: number;
}

export type ValueMapping =
  | { kind: 'sum' }
  | { kind: 'percentage'; maximumSummedScore: number }
  | { kind: 'scale'; multiplier: number }
  | { kind: 'range'; ranges: { low: number; high: number; value: number }[]; outOfRange: number };

export interface AnswerKey {
  questions: KeyQuestion[];
  mapping: ValueMapping;
}

function number(value: string | undefined, what: string, where: string, integer = true): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw parseError(what, `${where} must be ${integer ? 'a whole number' : 'a number'}, got "${value ?? ''}"`);
  }
  return n;
}

export function parseAnswerKey(xml: string, what = 'AnswerKey'): AnswerKey {
  checkXmlSize(xml, what);
  const root = rootOf(parseXml(xml, what, ['Question', 'AnswerOption', 'SelectionIdentifier', 'SummedScoreRange']));
  if (root?.name !== 'AnswerKey') throw parseError(what, `the root element must be AnswerKey${root ? `, got ${root.name}` : ''}`);
  const questions = children(root.node, 'Question').map((q) => {
    const id = childText(q, 'QuestionIdentifier');
    if (!id) throw parseError(what, 'every Question needs a QuestionIdentifier');
    const options = children(q, 'AnswerOption').map((o) => ({
      selections: children(o, 'SelectionIdentifier').map((s) => text(s) ?? ''),
      score: number(childText(o, 'AnswerScore'), what, `question "${id}": AnswerScore`),
    }));
    const defaultScore = childText(q, 'DefaultScore');
    return { id, options, defaultScore: defaultScore === undefined ? 0 : number(defaultScore, what, `question "${id}": DefaultScore`) };
  });
  const mappingNode = child(root.node, 'QualificationValueMapping');
  let mapping: ValueMapping = { kind: 'sum' };
  if (mappingNode !== undefined) {
    const percentage = child(mappingNode, 'PercentageMapping');
    const scale = child(mappingNode, 'ScaleMapping');
    const range = child(mappingNode, 'RangeMapping');
    if (percentage !== undefined) {
      const max = number(childText(percentage, 'MaximumSummedScore'), what, 'MaximumSummedScore');
      if (max <= 0) throw parseError(what, `MaximumSummedScore must be positive, got ${max}`);
      mapping = { kind: 'percentage', maximumSummedScore: max };
    } else if (scale !== undefined) {
      mapping = { kind: 'scale', multiplier: number(childText(scale, 'SummedScoreMultiplier'), what, 'SummedScoreMultiplier', false) };
    } else if (range !== undefined) {
      mapping = {
        kind: 'range',
        ranges: children(range, 'SummedScoreRange').map((r) => ({
          low: number(childText(r, 'InclusiveLowerBound'), what, 'InclusiveLowerBound'),
          high: number(childText(r, 'InclusiveUpperBound'), what, 'InclusiveUpperBound'),
          value: number(childText(r, 'QualificationValue'), what, 'QualificationValue'),
        })),
        outOfRange: number(childText(range, 'OutOfRangeQualificationValue'), what, 'OutOfRangeQualificationValue'),
      };
    } else {
      throw parseError(what, 'QualificationValueMapping needs a PercentageMapping, ScaleMapping or RangeMapping');
    }
  }
  return { questions, mapping };
}

/** An answer key must speak of the test's questions and selections. */
export function checkAnswerKeyAgainstTest(key: AnswerKey, test: QuestionForm, what = 'AnswerKey'): void {
  for (const q of key.questions) {
    const question = test.questions.find((t) => t.id === q.id);
    if (!question) throw parseError(what, `question "${q.id}" is not in the Test`);
    if (question.answer.kind !== 'selection')
      throw parseError(what, `question "${q.id}" is not a multiple-choice question; only those can be scored`);
    const known = new Set(question.answer.selections.map((s) => s.id));
    for (const option of q.options) {
      for (const s of option.selections) {
        if (!known.has(s)) throw parseError(what, `question "${q.id}": selection "${s}" is not among the Test's selections`);
      }
    }
  }
}

function sameSet(a: string[], b: string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

export interface TestScore {
  summedScore: number;
  /** The qualification value to grant. */
  value: number;
}

/** Scores a worker's selections (question id -> selection ids). */
export function scoreTest(key: AnswerKey, selections: ReadonlyMap<string, string[]>): TestScore {
  let summed = 0;
  for (const q of key.questions) {
    const chosen = selections.get(q.id) ?? [];
    const option = q.options.find((o) => sameSet(o.selections, chosen));
    summed += option ? option.score : q.defaultScore;
  }
  const m = key.mapping;
  switch (m.kind) {
    case 'sum':
      return { summedScore: summed, value: summed };
    case 'percentage':
      return { summedScore: summed, value: Math.round((summed / m.maximumSummedScore) * 100) };
    case 'scale':
      return { summedScore: summed, value: Math.round(summed * m.multiplier) };
    case 'range': {
      const range = m.ranges.find((r) => summed >= r.low && summed <= r.high);
      return { summedScore: summed, value: range ? range.value : m.outOfRange };
    }
  }
}
