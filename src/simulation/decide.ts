import type { AnswerKey, FormFields, QuestionForm } from '@qrelay/marketplace';
import type { SimWorker } from './draw.js';
import type { PopulationProfile } from './population.js';
import { hashUniform, type Rng } from './random.js';

/**
 * What a simulated worker answers (pure). An item's answer depends only on the seed, the
 * worker and the item's key (hashUniform), so a worker answers an item the same way in
 * every run, whatever the order in which HITs reach them.
 */

export type Judgment = 'yes' | 'no';

/** The simulation oracle's entry for one `data-sim-key`: the truth, the label a model gave, and whether it is an attention check. */
export interface OracleEntry {
  truth: Judgment;
  model?: Judgment;
  /** An attention check (easy, objectively known): never hard, and an LLM gets it right. */
  check?: boolean;
}

/** What the worker sees of the item on the page, and where they are in their session. */
export interface ItemView {
  /** The debate's verdicts and how confident each sounds (none when the page hides the debate). */
  arguments?: readonly { verdict: string; confidence: number }[];
  /** Items this worker has done in the current visit before this one. */
  itemsDone: number;
  /** Assignments this worker has worked in the run before this item's (careful-then-careless workers); 0 when absent. */
  assignmentsDone?: number;
}

/** The population's answer model (a slice of PopulationProfile). */
export type AnswerModel = Pick<PopulationProfile, 'llm' | 'debate' | 'items' | 'fatigue'> &
  Partial<Pick<PopulationProfile, 'careless' | 'copying'>>;

const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

export function ownJudgment(worker: SimWorker, truth: Judgment, u: number): Judgment {
  const right = truth === 'yes' ? worker.accuracy.relevant : worker.accuracy.notRelevant;
  return u < right ? truth : flip(truth);
}

/** The verdict of the more confident-sounding argument, when one sounds more confident than every other. */
export function confidentVerdict(args: ItemView['arguments']): Judgment | undefined {
  if (!args || args.length < 2) return undefined;
  const sorted = [...args].sort((a, b) => b.confidence - a.confidence);
  if (sorted[0]!.confidence === sorted[1]!.confidence) return undefined;
  const v = sorted[0]!.verdict;
  return v === 'yes' || v === 'no' ? v : undefined;
}

/** Whether an escalated item is hard: a property of the item (the same for every worker). */
export function isHard(seed: string, key: string, entry: OracleEntry, model: AnswerModel): boolean {
  return entry.check !== true && hashUniform(seed, 'hard', key) < model.items.hardShare;
}

/** The one LLM's verdict on an item (every LLM-assisted worker gets the same one). */
export function llmVerdict(seed: string, key: string, entry: OracleEntry, model: AnswerModel): Judgment {
  const u = hashUniform(seed, 'llm', key);
  if (model.llm.accuracy !== undefined) return u < model.llm.accuracy ? entry.truth : flip(entry.truth);
  if (entry.check === true || entry.model === undefined)
    return u < (entry.check === true ? model.llm.checkAccuracy : 0.5) ? entry.truth : flip(entry.truth);
  return u < model.llm.agentAgreement ? entry.model : flip(entry.model);
}

/**
 * A careful person's answer (diligent, fatigue and quitter workers): their accuracy for
 * the item's true class, pulled to the population's hard-item accuracy on hard items and
 * towards chance by fatigue; then the page's debate, when shown: read carefully it leads to
 * the verdict the quoted evidence supports (shared by careful readers, hence agreement),
 * read carelessly it may carry the worker to the more confident-sounding agent.
 */
function personJudgment(seed: string, worker: SimWorker, key: string, entry: OracleEntry, view: ItemView, model: AnswerModel): Judgment {
  let right = entry.truth === 'yes' ? worker.accuracy.relevant : worker.accuracy.notRelevant;
  if (isHard(seed, key, entry, model)) right = model.items.hardAccuracy;
  if (worker.kind === 'fatigue') {
    const keep = Math.max(model.fatigue.floor, 1 - model.fatigue.perItem * view.itemsDone);
    right = 0.5 + (right - 0.5) * keep;
  }
  const shown = view.arguments !== undefined && view.arguments.length > 0;
  if (shown) {
    if (hashUniform(seed, worker.workerId, key, 'read') < worker.careful) {
      // led to the evidence: the verdict it supports, the same for every careful reader
      // an attention check's answer is objectively known: its evidence never misleads
      if (hashUniform(seed, worker.workerId, key, 'gain') < model.debate.gain)
        return entry.check !== true && hashUniform(seed, 'misleading', key) < model.debate.misleading ? flip(entry.truth) : entry.truth;
    } else {
      const swayedTo = confidentVerdict(view.arguments);
      if (swayedTo !== undefined && hashUniform(seed, worker.workerId, key, 'sway') < model.debate.sway) return swayedTo;
    }
  }
  return hashUniform(seed, worker.workerId, key) < right ? entry.truth : flip(entry.truth);
}

/** Whether a careful-then-careless worker has passed their change point by this assignment. */
export function hasTurnedCareless(worker: SimWorker, view: Pick<ItemView, 'assignmentsDone'>): boolean {
  return worker.kind === 'careless' && worker.changeAfter !== undefined && (view.assignmentsDone ?? 0) >= worker.changeAfter;
}

/**
 * A copier's answer: the pair's one answer on the item (the same for both members), right
 * with the pair's accuracy, given `copying.rate` of the time; else their own at that accuracy.
 */
function copierJudgment(seed: string, worker: SimWorker, key: string, entry: OracleEntry, model: AnswerModel): Judgment {
  const right = worker.accuracy.relevant;
  const copies = hashUniform(seed, worker.workerId, key, 'copy') < (model.copying?.rate ?? 1);
  const u = copies ? hashUniform(seed, 'pair', String(worker.pair ?? worker.workerId), key) : hashUniform(seed, worker.workerId, key);
  return u < right ? entry.truth : flip(entry.truth);
}

/** Whether an LLM-assisted worker sends this item to the LLM (else judges it alone). */
export function usesLlm(seed: string, worker: SimWorker, key: string): boolean {
  return worker.kind === 'llm' && hashUniform(seed, worker.workerId, key, 'paste') < worker.llmAgreement;
}

/** The answer of `worker` to the item `key`; keys the oracle does not know are answered at random. */
export function decide(
  seed: string,
  worker: SimWorker,
  key: string,
  entry: OracleEntry | undefined,
  view: ItemView,
  model: AnswerModel,
): Judgment {
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
      return usesLlm(seed, worker, key) ? llmVerdict(seed, key, entry, model) : personJudgment(seed, worker, key, entry, view, model);
    case 'diligent':
    case 'fatigue':
    case 'quitter':
      return personJudgment(seed, worker, key, entry, view, model);
    case 'honest':
      // checks and items alike, hard or not, whatever the debate says
      return ownJudgment(worker, entry.truth, u);
    case 'careless':
      if (!hasTurnedCareless(worker, view)) return personJudgment(seed, worker, key, entry, view, model);
      if (model.careless?.answer === 'yes' || model.careless?.answer === 'no') return model.careless.answer;
      return hashUniform(seed, worker.workerId, key, 'careless') < 0.5 ? 'yes' : 'no';
    case 'copier':
      return copierJudgment(seed, worker, key, entry, model);
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
    const best = key?.questions
      .find((k) => k.id === q.id)
      ?.options.reduce<{ selections: string[]; score: number } | undefined>((a, o) => (!a || o.score > a.score ? o : a), undefined);
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
