import type { AnswerKey, FormFields, QuestionForm } from '@qrelay/marketplace';
import type { SimWorker } from './draw.js';
import { hashUniform, type Rng } from './random.js';

/**
 * What a simulated worker answers (pure). An item's answer depends only on the seed, the
 * worker and the item's key (hashUniform), so a worker answers an item the same way in
 * every run, whatever the order in which HITs reach them.
 */

export type Judgment = 'yes' | 'no';

/** The simulation oracle's entry for one `data-sim-key`: the truth, and the label a model gave. */
export interface OracleEntry {
  truth: Judgment;
  model?: Judgment;
}

const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

export function ownJudgment(worker: SimWorker, truth: Judgment, u: number): Judgment {
  const right = truth === 'yes' ? worker.accuracy.relevant : worker.accuracy.notRelevant;
  return u < right ? truth : flip(truth);
}

/** The answer of `worker` to the item `key`; keys the oracle does not know are answered at random. */
export function decide(seed: string, worker: SimWorker, key: string, entry: OracleEntry | undefined): Judgment {
  const u = hashUniform(seed, worker.workerId, key);
  if (!entry) return u < 0.5 ? 'yes' : 'no';
  switch (worker.kind) {
    case 'spammer':
      return u < 0.5 ? 'yes' : 'no';
    case 'alwaysYes':
      return 'yes';
    case 'alwaysNo':
      return 'no';
    case 'llm':
      return entry.model !== undefined ? (u < worker.llmAgreement ? entry.model : flip(entry.model)) : ownJudgment(worker, entry.truth, u);
    case 'diligent':
      return ownJudgment(worker, entry.truth, u);
  }
}

/**
 * A worker's answers to a qualification test: each question right with the worker's
 * skill (the selections the AnswerKey scores highest; the marketplace holds the key, as
 * it holds the oracle), otherwise another selection. Without a key, or for free-text
 * questions, the answer is a guess.
 */
export function testAnswers(form: QuestionForm, key: AnswerKey | undefined, skill: number, rng: Rng): FormFields {
  const answers: FormFields = {};
  for (const q of form.questions) {
    if (q.answer.kind === 'freeText') {
      answers[q.id] = 'simulated answer';
      continue;
    }
    if (q.answer.kind !== 'selection') continue;
    const ids = q.answer.selections.map((s) => s.id);
    const best = key?.questions.find((k) => k.id === q.id)?.options.reduce<{ selections: string[]; score: number } | undefined>((a, o) => (!a || o.score > a.score ? o : a), undefined);
    const right = best?.selections.filter((s) => ids.includes(s));
    if (right && right.length > 0 && rng.next() < skill) {
      answers[q.id] = right.length === 1 ? right[0]! : right;
      continue;
    }
    const wrong = ids.filter((id) => !(right?.length === 1 && right[0] === id));
    const pool = wrong.length > 0 ? wrong : ids;
    answers[q.id] = pool[Math.floor(rng.next() * pool.length)]!;
  }
  return answers;
}
