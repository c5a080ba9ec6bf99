import type { DebateTurn } from '../domain/cases.js';

/**
 * What the two debate writers share (pure): the attention checks' own debates
 * (check-debate.ts) and the sample generator's escalated ones (tools/samples/debates.ts).
 * Both argue in the DREAM debates' register: agent A from "relevant", agent B from
 * "irrelevant", two rounds, the guidelines cited by number. Each writer draws from its
 * own seeded generator, passed in as {@link DebateRandom}, so its output stays its own.
 */

/** The DREAM guidelines an argument may lean on. */
export type GuidelineRule = 'scope' | 'key' | 'direct' | 'intent' | 'complete' | 'surface' | 'correctness';

const GUIDELINES: Record<GuidelineRule, [number, string]> = {
  scope: [1, 'same scope'],
  key: [2, 'key content present'],
  direct: [3, 'stated directly'],
  intent: [4, 'same intent'],
  complete: [5, 'complete information'],
  surface: [6, 'no surface matching'],
  correctness: [7, 'no judging answer correctness'],
};

export const cite = (rule: GuidelineRule): string => `guideline ${GUIDELINES[rule][0]} (${GUIDELINES[rule][1]})`;
export const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The two sides of a debate: what A argues, what B argues, and the guideline each leans on. */
export interface DebateArguments {
  pro: string;
  con: string;
  /** The guideline B's objection invokes. */
  objection: GuidelineRule;
  /** The guideline A's defence invokes. */
  defence: GuidelineRule;
}

/** A writer's seeded choices. */
export interface DebateRandom {
  pick<T>(options: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

/** Agent B's first-round objection. */
export function objectionOpening(random: DebateRandom, args: DebateArguments): string {
  return random.pick([
    `${args.con} By ${cite(args.objection)}, the chunk does not give sufficient evidence for any of the answers. Not relevant.`,
    `The chunk is on the right topic, but that is not enough. ${args.con} ${capitalise(cite(args.objection))} asks for more, so I judge it not relevant.`,
    `I do not find the answer in the text. ${args.con} Not relevant.`,
  ]);
}

/** An agent's second-round reply: it keeps its label, or takes the other side's. */
function reply(random: DebateRandom, args: DebateArguments, agent: 'A' | 'B', keeps: boolean): string {
  if (agent === 'A') {
    return keeps
      ? random.pick([
          `Agent B objects on ${cite(args.objection)}. I disagree. ${args.pro} I keep my label: relevant.`,
          `I have weighed Agent B's point, but it does not change the evidence. ${args.pro} The chunk remains relevant.`,
        ])
      : random.pick([
          `Agent B makes a fair point. ${args.con} On ${cite(args.objection)} I now judge the chunk not relevant.`,
          `Re-reading the chunk, I accept Agent B's objection. ${args.con} I change my label to not relevant.`,
        ]);
  }
  return keeps
    ? random.pick([
        `Agent A's reading goes beyond the text. ${args.con} I keep my label: not relevant.`,
        `Agent A argues the chunk is relevant, but ${cite(args.objection)} still applies. ${args.con} Not relevant.`,
      ])
    : random.pick([
        `On reflection, Agent A has the better argument. ${args.pro} Following ${cite(args.defence)}, I change my label to relevant.`,
        `I reconsidered the quoted sentence. ${args.pro} I now judge the chunk relevant.`,
      ]);
}

/**
 * The two rounds of an escalated debate from its openings: in round 2 both agents keep
 * their labels, or both switch (`crossing`), so they still disagree. A always quotes
 * `focal`; B quotes it half the time, and always when it switches.
 */
export function twoRounds(
  random: DebateRandom,
  args: DebateArguments,
  openings: { readonly a: string; readonly b: string },
  focal: string[],
  crossing: boolean,
): DebateTurn[] {
  const bQuotes = () => (random.chance(0.5) ? focal : []);
  const bFirst = bQuotes();
  const replyA = reply(random, args, 'A', !crossing);
  const replyB = reply(random, args, 'B', !crossing);
  return [
    { round: 1, agent: 'A', stance: 'relevant', label: 'yes', reasoning: openings.a, references: focal },
    { round: 1, agent: 'B', stance: 'irrelevant', label: 'no', reasoning: openings.b, references: bFirst },
    { round: 2, agent: 'A', stance: 'relevant', label: crossing ? 'no' : 'yes', reasoning: replyA, references: focal },
    {
      round: 2,
      agent: 'B',
      stance: 'irrelevant',
      label: crossing ? 'yes' : 'no',
      reasoning: replyB,
      references: crossing ? focal : bQuotes(),
    },
  ];
}
