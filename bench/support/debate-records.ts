/**
 * Synthetic escalated cases for the import and ingest benches: one JSONL line per index,
 * deterministic, of the size and shape of a DREAM debate record (a 260-word chunk, two
 * rounds of two agents with 70-word arguments), about 3.8 KB each.
 */

const words =
  'the river flows through several countries before it reaches the sea and its basin drains a large part of central europe'.split(' ');

const prose = (n: number, seed: number) => `${Array.from({ length: n }, (_, i) => words[(seed * 7 + i * 13) % words.length]).join(' ')}.`;

/** The `i`-th record as one JSON line (without the newline). */
export function debateRecord(i: number): string {
  const chunk = prose(260, i);
  const turn = (round: number, agent: 'A' | 'B') => ({
    round,
    agent,
    stance: agent === 'A' ? 'relevant' : 'irrelevant',
    label: agent === 'A' ? 'yes' : 'no',
    reasoning: prose(70, i + round),
    references: agent === 'A' ? [chunk.slice(0, 120)] : [],
  });
  return JSON.stringify({
    query_id: `q${i % 5000}`,
    query: `how long is river number ${i % 5000}`,
    answers: ['2,850 km'],
    chunk_id: `d${i}`,
    chunk,
    dataset: 'bench',
    debate: [turn(1, 'A'), turn(1, 'B'), turn(2, 'A'), turn(2, 'B')],
    hidden_label: i % 5 < 2 ? 'yes' : 'no',
  });
}
