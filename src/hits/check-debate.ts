import type { DebateTurn, GoldItem } from '../domain/cases.js';
import {
  capitalise,
  cite,
  objectionOpening,
  twoRounds,
  type DebateArguments,
  type DebateRandom,
  type GuidelineRule,
} from './debate-text.js';
import { seededRng, type Rng } from './random.js';

/**
 * The debate an attention check shows: written for the check's own query and chunk, in the
 * style of the DREAM debates that real items carry (pure and deterministic: the same seed
 * and gold item give the same debate; no LLM runs).
 *
 * Like an escalated debate it has two rounds, agent A starting from "relevant" and agent B
 * from "irrelevant"; in round 2 both keep their labels, or (as in about 15% of escalations)
 * both switch, so the final labels always disagree. Each agent's reasoning names the DREAM
 * guidelines and quotes verbatim sentences of the chunk (so the page highlights them, as on
 * real items). Nothing here reads the gold label: which agent ends on "yes", what is
 * quoted, all come from the chunk's text and the seed alone; and the arguments use no words
 * that make one side sound surer than the other (assertions such as "states", "names",
 * "directly"; hedges such as "may", "seems"), so that the agent who sounds more confident
 * (the frames and quotes, as on real items) is not the one the evidence supports more often
 * on checks than on real items. Following either
 * agent therefore passes a check half the time; only reading the chunk passes it always.
 */

/** A check's arguments never turn on answer correctness (guideline 7): a check's chunk is judged on its evidence. */
type Rule = Exclude<GuidelineRule, 'correctness'>;

const pick = <T>(rng: Rng, options: readonly T[]): T => options[rng.int(options.length)] as T;
const randomOf = (rng: Rng): DebateRandom => ({ pick: (options) => pick(rng, options), chance: (p) => rng.next() < p });

/** The chunk's sentences, verbatim (so that a quote of one is found in the chunk). */
export function sentencesOf(chunk: string): string[] {
  return chunk
    .split(/(?<=[.!?]["”’)]?)\s+(?=["“‘(]?[\p{Lu}\p{N}])/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const STOP_WORDS = new Set(
  'a an and are as at be by did do does for from how in is it its of on or the to was were what when where which who whom why with'.split(
    ' ',
  ),
);
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The sentence an agent would quote: one holding an answer if any does, else the one that
 * shares most content words with the query (the first on a tie). Never from the label.
 */
export function focalSentence(gold: Pick<GoldItem, 'query' | 'answers' | 'chunk'>): { sentence: string; holdsAnswer: boolean } {
  const sentences = sentencesOf(gold.chunk);
  const queryWords = new Set(words(gold.query).filter((w) => !STOP_WORDS.has(w)));
  const answers = gold.answers.map((a) => a.trim().toLowerCase()).filter((a) => a.length > 0);
  let best = { sentence: sentences[0] ?? gold.chunk.trim(), holdsAnswer: false, score: -1 };
  for (const sentence of sentences) {
    const lower = sentence.toLowerCase();
    const holdsAnswer = answers.some((a) => lower.includes(a));
    const overlap = new Set(words(sentence).filter((w) => queryWords.has(w))).size;
    const score = (holdsAnswer ? 1000 : 0) + overlap;
    if (score > best.score) best = { sentence, holdsAnswer, score };
  }
  return { sentence: best.sentence, holdsAnswer: best.holdsAnswer };
}

/**
 * A few words of the focal sentence around what it shares with the query (at most six),
 * for arguments that talk about the sentence's content as real debates do.
 */
export function excerptOf(sentence: string, query: string): string {
  const tokens = sentence.replace(/[.!?]+["”’)]?$/u, '').split(/\s+/u);
  const queryWords = new Set(words(query).filter((w) => !STOP_WORDS.has(w)));
  const hits = tokens.map((t) => words(t).some((w) => queryWords.has(w)));
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i + Math.min(6, tokens.length) <= tokens.length; i++) {
    const score = hits.slice(i, i + 6).filter(Boolean).length;
    if (score > bestScore) [best, bestScore] = [i, score];
  }
  const excerpt = tokens
    .slice(best, best + 6)
    .join(' ')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return /^\p{Lu}\p{Ll}/u.test(excerpt) && best === 0 ? excerpt.charAt(0).toLowerCase() + excerpt.slice(1) : excerpt;
}

function argumentsFor(rng: Rng, gold: Pick<GoldItem, 'answers' | 'query'>, focal: string, holdsAnswer: boolean): DebateArguments {
  const excerpt = excerptOf(focal, gold.query);
  const listed = gold.answers.length === 0 ? 'an answer to the query' : gold.answers.map((a) => `"${a}"`).join(' or ');
  const answer = gold.answers.find((a) => a.trim().length > 0 && focal.toLowerCase().includes(a.trim().toLowerCase()))?.trim();
  if (holdsAnswer && answer !== undefined) {
    const objection = pick<Rule>(rng, ['complete', 'scope', 'direct', 'intent']);
    const cons: Record<string, string> = {
      complete: `The sentence mentions ${answer} in passing; the rest of what the answer needs is not there.`,
      scope: `The sentence mentions ${answer}, but in another context than the one the query has in mind.`,
      direct: `${capitalise(answer)} is there, but the sentence is about ${excerpt}, so it is not spelled out.`,
      intent: `The sentence is about ${excerpt}; that ${answer} is the answer has to be inferred.`,
    };
    return {
      pro: pick(rng, [
        `The sentence mentions ${answer}, the answer itself.`,
        `The sentence provides ${answer}, and that settles it.`,
        `${capitalise(excerpt)}: the text reports ${answer} itself.`,
        `The chunk says ${answer} in so many words.`,
        `The sentence "${focal}" holds the answer, so the chunk supports ${listed}.`,
      ]),
      con: cons[objection] as string,
      objection,
      defence: pick<Rule>(rng, ['key', 'direct']),
    };
  }
  const objection = pick<Rule>(rng, ['surface', 'key', 'intent', 'complete']);
  const named = gold.answers[0]?.trim() || 'the answer';
  const cons: Record<string, string> = {
    surface: `The chunk shares words with the query but never mentions any of the answers (${listed}).`,
    key: `The text describes ${excerpt}, not ${named}; it cannot be read from it.`,
    intent: `${capitalise(excerpt)} is a neighbouring fact, not what was asked.`,
    complete: `Nothing in the chunk provides ${named}; the key content is missing.`,
  };
  return {
    pro: pick(rng, [
      `The sentence describes ${excerpt}, which points to the answer.`,
      `The chunk mentions ${excerpt}, and that is where ${named} comes from.`,
      `${capitalise(excerpt)} is exactly the subject here.`,
      `The sentence covers ${excerpt}; a reader gets ${named} from it.`,
    ]),
    con: cons[objection] as string,
    objection,
    defence: pick<Rule>(rng, ['key', 'direct', 'intent']),
  };
}

function proOpening(rng: Rng, query: string, args: DebateArguments): string {
  return pick(rng, [
    `The query asks "${query}". ${args.pro} Under ${cite(args.defence)}, that is enough evidence for at least one answer, so I judge the chunk relevant.`,
    `${args.pro} The chunk's subject matches the query, and the quoted sentence carries what is needed. Relevant.`,
  ]);
}

/** Share of escalated debates in which both agents switch in round 2 (so they still disagree). */
const CROSSING_SHARE = 0.15;

/** The check's own two-round debate (see the module comment); `seed` is the plan's seed. */
export function checkDebate(gold: Pick<GoldItem, 'query_id' | 'chunk_id' | 'query' | 'answers' | 'chunk'>, seed: string): DebateTurn[] {
  const rng = seededRng(`${seed}\u0000check-debate\u0000${gold.query_id}\u0000${gold.chunk_id}`);
  const { sentence, holdsAnswer } = focalSentence(gold);
  const args = argumentsFor(rng, gold, sentence, holdsAnswer);
  const crossing = rng.next() < CROSSING_SHARE;
  const random = randomOf(rng);
  const a = proOpening(rng, gold.query, args);
  const b = objectionOpening(random, args);
  return twoRounds(random, args, { a, b }, [sentence], crossing);
}
