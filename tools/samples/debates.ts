import type { DebateTurn } from '../../src/domain/cases.js';
import { cite, objectionOpening, twoRounds, type DebateArguments } from '../../src/hits/debate-text.js';
import type { Pair } from './corpus.js';
import type { Rng } from './rng.js';
import { GOLD_ARGUMENTS } from './gold-arguments.js';
import type { Rule } from './types.js';

/**
 * Two-round DREAM debates: agent A starts from "relevant", agent B from "irrelevant";
 * each turn has reasoning in an LLM judge's register citing the 7 guidelines, verbatim
 * quotes from the chunk, and a label. Escalated debates end in disagreement. The phrases
 * and the rounds are the attention checks' (src/hits/debate-text.ts).
 */

export type Turn = DebateTurn;

/** "It gives..." -> "The sentence gives...": in a debate, a bare "it" could be anything. */
const explicit = (argument: string) => argument.replace(/^It /, 'The sentence ');

const quoted = (answers: readonly string[]) => answers.map((a) => `"${a}"`).join(' or ');

/** The two sides of a pair: what A argues, what B argues, and the guideline each leans on. */
export type Arguments = DebateArguments;

/** Arguments for a hard pair come from the sentence; clear pairs get generic ones. */
export function argumentsFor(rng: Rng, pair: Pair): Arguments {
  const { query, focal } = pair;
  const answers = quoted(query.spec.answers);
  if (pair.hard) {
    const rule = pair.hard.rule;
    return {
      pro: explicit(pair.hard.pro),
      con: explicit(pair.hard.con),
      objection: rule === 'correctness' ? 'complete' : rule,
      defence: rule === 'correctness' ? 'correctness' : rule === 'key' ? 'direct' : 'key',
    };
  }
  if (pair.kind === 'direct') {
    const objection = rng.pick<Rule>(['complete', 'scope', 'direct']);
    const cons: Record<string, string> = {
      complete: `Most of the chunk (titled "${pair.passage.title}") is background; the one sentence that touches the question is brief and may not give complete information for it.`,
      scope: `The chunk is general background under the title "${pair.passage.title}"; the figure or fact it gives may belong to a different context than the one the query has in mind.`,
      direct: `The chunk circles the topic, and the answer has to be picked out of a sentence written for another purpose.`,
    };
    return {
      pro: `The sentence "${focal}" states the answer outright, so the chunk supports ${answers}.`,
      con: cons[objection]!,
      objection,
      defence: 'key',
    };
  }
  return {
    pro: `The chunk, titled "${pair.passage.title}", shares the key terms of the query, so it plausibly addresses the question.`,
    con: `The chunk shares words with the query but never states any of the answers (${answers}).`,
    objection: rng.pick<Rule>(['surface', 'key']),
    defence: 'key',
  };
}

function proOpening(rng: Rng, pair: Pair, args: Arguments): string {
  const q = `"${pair.query.spec.text}"`;
  return rng.pick([
    `The query asks ${q}. ${args.pro} Under ${cite(args.defence)}, that is enough evidence for at least one answer, so I judge the chunk relevant.`,
    `${args.pro} The chunk's subject, "${pair.passage.title}", matches the query, and the quoted sentence carries what is needed. Relevant.`,
    `Looking for evidence of ${quoted(pair.query.spec.answers)}: ${args.pro} I label the chunk relevant.`,
  ]);
}

/**
 * An escalated debate: both agents argue their stance in round 1, and in round 2 either
 * both keep their labels or both switch (crossing), so that they still disagree.
 */
export function escalatedDebate(rng: Rng, pair: Pair, forceCrossing?: boolean): Turn[] {
  const args = argumentsFor(rng, pair);
  const focal = pair.focal ? [pair.focal] : [];
  const crossing = forceCrossing ?? rng.chance(0.15);
  const a = proOpening(rng, pair, args);
  const b = objectionOpening(rng, args);
  return twoRounds(rng, args, { a, b }, focal, crossing);
}

const longWords = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4));

/**
 * The sentence of a passage the agents argue over when the pair has no focal sentence (a
 * background-only passage): the longest of those that share a word of four letters or more
 * with the query (the longest of all when none does), the way a hard pair turns on a long
 * sentence that looks as if it might hold the answer.
 */
function arguedSentence(pair: Pair): string {
  const query = longWords(pair.query.spec.text);
  const sharing = pair.passage.sentences.filter((s) => [...longWords(s)].some((w) => query.has(w)));
  return (sharing.length > 0 ? sharing : pair.passage.sentences).reduce((best, s) => (s.length > best.length ? s : best));
}

/** Which of the escalated debates ended crossed, and which were argued with a clear pair's generic arguments. */
export interface DebateMix {
  crossing: number;
  generic: number;
}

/**
 * The gold items' own debates, each for its own query and chunk: argued like a hard pair's,
 * from the hand-written arguments of gold-arguments.ts, by the same two agents and two
 * rounds as an escalated case, ending in disagreement. An attention check shows it, so the
 * gold debates follow the escalated ones' mix exactly, within each gold label: the same
 * share crossed (agent A ends on "no", B on "yes") and the same share argued with a clear
 * pair's generic arguments (the stubborn pairs). So which agent says yes, or how the
 * debate is argued, tells a check's label no more than a real item's.
 */
export function goldDebates(rng: Rng, pairs: readonly Pair[], mix: DebateMix): Turn[][] {
  const crossing = new Set<Pair>();
  const generic = new Set<Pair>();
  for (const label of ['yes', 'no'] as const) {
    const same = pairs.filter((p) => p.truth === label);
    for (const p of rng.sample(same, Math.round(same.length * mix.crossing))) crossing.add(p);
    for (const p of rng.sample(same, Math.round(same.length * mix.generic))) generic.add(p);
  }
  return pairs.map((pair) => {
    const text = pair.focal ?? arguedSentence(pair);
    if (generic.has(pair)) return escalatedDebate(rng, { ...pair, focal: text }, crossing.has(pair));
    const argument = GOLD_ARGUMENTS[pair.query.spec.text]?.[text];
    if (!argument)
      throw new Error(
        `tools/samples/gold-arguments.ts has no arguments for gold item ${pair.query.id} ${pair.passage.id}: query "${pair.query.spec.text}", sentence "${text}"; add them`,
      );
    return escalatedDebate(rng, { ...pair, focal: text, hard: { text, label: pair.truth, ...argument } }, crossing.has(pair));
  });
}

/** A debate that ended in round 1 with both agents on the truth (a consensus row). */
export function consensusRound(rng: Rng, pair: Pair): Turn[] {
  const focal = pair.focal ? [pair.focal] : [];
  const answers = quoted(pair.query.spec.answers);
  if (pair.truth === 'yes') {
    return [
      { round: 1, agent: 'A', stance: 'relevant', label: 'yes', reasoning: `The chunk states the answer directly: "${pair.focal}" This supports ${answers}. Relevant.`, references: focal },
      {
        round: 1,
        agent: 'B',
        stance: 'irrelevant',
        label: 'yes',
        reasoning: rng.pick([
          `I was asked to argue that the chunk is not relevant, but it states the answer plainly and ${cite('key')} is met. I agree: relevant.`,
          `My stance is irrelevant, yet the quoted sentence gives the answer in so many words. I cannot object; relevant.`,
        ]),
        references: focal,
      },
    ];
  }
  return [
    {
      round: 1,
      agent: 'A',
      stance: 'relevant',
      label: 'no',
      reasoning: rng.pick([
        `I looked for support for the relevant stance, but the chunk is general background on "${pair.passage.title}" and never states ${answers}. By ${cite('key')} I must judge it not relevant.`,
        `Although my stance is relevant, nothing in the chunk gives ${answers}, and under ${cite('surface')} sharing a topic is not evidence. Not relevant.`,
      ]),
      references: [],
    },
    { round: 1, agent: 'B', stance: 'irrelevant', label: 'no', reasoning: `None of the answers (${answers}) appears in the chunk, and nothing in it implies them. Not relevant.`, references: [] },
  ];
}
