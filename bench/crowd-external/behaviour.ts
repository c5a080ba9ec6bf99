/**
 * What a bot is (pure): how it answers and times each item of a HIT, what page events its
 * browser would count, how long it pauses between HITs. The behaviours are written from
 * issue 35's description of an independent crowd, not from qrelay's simulator: one file
 * each beside this one.
 */
import type { ItemWork, PageItem } from './hit-form.js';
import type { Rng } from './rng.js';

export type Judgment = 'yes' | 'no';
export type BotKind = 'diligent' | 'spammer' | 'always-yes' | 'always-no' | 'careless' | 'llm' | 'copier';

/** What the bots may know of an item: its true label (a careful person's best reading) and the batch's one LLM's verdict. */
export interface Oracle {
  truth(key: string): Judgment | undefined;
  llm(key: string): Judgment;
}

/** P(yes | relevant) and P(no | not relevant): the bot's true per-class accuracy, for the Bayes-optimal yardstick. */
export interface ClassAccuracy {
  relevant: number;
  notRelevant: number;
}

export interface Behaviour {
  kind: BotKind;
  /** Null where the bot's answers are not independent draws of a fixed accuracy (careless, LLM users, copiers). */
  accuracy: ClassAccuracy | null;
  /** `nth`: how many assignments the bot submitted before this one. */
  work(item: PageItem, nth: number): ItemWork;
  /** Seconds (human time) between two HITs. */
  pauseSeconds(): number;
  /** Share of the qualification test's questions it gets right. */
  examAccuracy: number;
}

export const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

export const noEvents = () => ({ copy: 0, paste: 0, 'focus-loss': 0 });

/** Everyone takes the entrance test seriously, whatever they do afterwards: it is short and gates the pay. */
export const EXAM_ACCURACY = 0.98;

/** A person's reading of an item: right with probability `accuracy`; an item whose truth the bot does not know is a coin toss. */
export function personAnswer(rng: Rng, oracle: Oracle, key: string, accuracy: number): Judgment {
  const truth = oracle.truth(key);
  if (truth === undefined) return rng.chance(0.5) ? 'yes' : 'no';
  return rng.chance(accuracy) ? truth : flip(truth);
}

/** A careful person's pace and habits: time per item log-normal around their own median, now and then away from the page. */
export function carefulItem(rng: Rng, medianSeconds: number, answer: Judgment): ItemWork {
  const events = noEvents();
  if (rng.chance(0.06)) events['focus-loss'] = 1;
  if (rng.chance(0.02)) events.copy = 1;
  return { answer, ms: 1000 * Math.max(8, rng.logNormal(medianSeconds, 0.35)), events };
}

/** A hurried worker's item: a few seconds, nothing else on the page touched. */
export function hurriedItem(rng: Rng, medianSeconds: number, answer: Judgment): ItemWork {
  return { answer, ms: 1000 * Math.max(1, rng.logNormal(medianSeconds, 0.3)), events: noEvents() };
}
