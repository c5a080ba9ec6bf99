import type { DebateTurn, EscalatedCase, GoldItem } from '../../src/domain/cases.js';

/** Test data for HIT planning and rendering: small, varied, deterministic. */

const SENTENCES = [
  'The committee approved the budget in March after a long debate.',
  'Rainfall in the region averages 800 millimetres a year.',
  'The bridge was opened to traffic in 1932 and widened in 1958.',
  'Its population grew from 12,000 to 45,000 within two decades.',
  'The species feeds mainly on insects and small fruit.',
  'Tickets can be bought online or at the station counter.',
];

export function debateFor(chunk: string, opts: { agree?: boolean; refs?: [string[], string[]] } = {}): DebateTurn[] {
  const first = chunk.split('. ')[0] ?? chunk;
  const [refsA, refsB] = opts.refs ?? [[first], []];
  return [
    { round: 1, agent: 'A', stance: 'relevant', label: 'yes', reasoning: 'The chunk states the key fact directly.', references: refsA },
    {
      round: 1,
      agent: 'B',
      stance: 'irrelevant',
      label: 'no',
      reasoning: 'The chunk only shares words with the query.',
      references: refsB,
    },
    { round: 2, agent: 'A', stance: 'relevant', label: 'yes', reasoning: 'I keep my view: the fact is stated.', references: refsA },
    {
      round: 2,
      agent: 'B',
      stance: 'irrelevant',
      label: opts.agree ? 'yes' : 'no',
      reasoning: 'The scope differs from the query.',
      references: refsB,
    },
  ];
}

/** Case i: query `q{floor(i/queriesEvery)}` of dataset `ds{query % datasets}`. */
export function makeCases(n: number, opts: { queriesEvery?: number; datasets?: number; prefix?: string } = {}): EscalatedCase[] {
  const every = opts.queriesEvery ?? 3;
  const datasets = opts.datasets ?? 2;
  const prefix = opts.prefix ?? '';
  return Array.from({ length: n }, (_, i) => {
    const q = Math.floor(i / every);
    const chunk = `${SENTENCES[i % SENTENCES.length]} ${SENTENCES[(i + 2) % SENTENCES.length]} Item ${i}.`;
    return {
      query_id: `${prefix}q${q}`,
      query: `what happened with topic ${q}`,
      answers: [`answer ${q}a`, `answer ${q}b`],
      chunk_id: `${prefix}c${i}`,
      chunk,
      dataset: `ds${q % datasets}`,
      debate: debateFor(chunk),
    };
  });
}

export function makeGold(yes: number, no: number, opts: { dataset?: string } = {}): GoldItem[] {
  return Array.from({ length: yes + no }, (_, i) => ({
    query_id: `gq${i}`,
    query: `gold question ${i}`,
    answers: [`gold answer ${i}`],
    chunk_id: `gc${i}`,
    chunk: `Gold chunk number ${i}: ${SENTENCES[i % SENTENCES.length]}`,
    label: i < yes ? ('yes' as const) : ('no' as const),
    dataset: opts.dataset ?? 'gold',
  }));
}

export const PRICING = { reward: '1.00', assignmentsPerHit: 3, masters: false };
