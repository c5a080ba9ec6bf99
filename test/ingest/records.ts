/** Small valid input records for the ingest tests, as plain JSON values to vary. */

export function canonicalEscalation(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    query_id: 'q1',
    query: 'how long is the danube',
    answers: ['2,850 km'],
    chunk_id: 'd1',
    chunk: 'The Danube flows for 2,850 km. It crosses ten countries.',
    dataset: 'sample',
    debate: [
      {
        round: 1,
        agent: 'A',
        stance: 'relevant',
        label: 'yes',
        reasoning: 'States the length.',
        references: ['The Danube flows for 2,850 km.'],
      },
      { round: 1, agent: 'B', stance: 'irrelevant', label: 'no', reasoning: 'Scope unclear.', references: [] },
      {
        round: 2,
        agent: 'A',
        stance: 'relevant',
        label: 'yes',
        reasoning: 'Still states it.',
        references: ['The Danube flows for 2,850 km.'],
      },
      { round: 2, agent: 'B', stance: 'irrelevant', label: 'no', reasoning: 'Still unclear.', references: [] },
    ],
    ...overrides,
  };
}

function agent(stance: string, label: unknown, reasoning = 'because') {
  return { stance, reasoning, label };
}

/** A BRIDGE row; by default an escalation (consensus: false) whose agents still disagree. */
export function bridgeRow(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    q_id: 12,
    question: 'who wrote dracula',
    answers: ['Bram Stoker'],
    doc_id: 'd9',
    text: 'Dracula is an 1897 novel by Bram Stoker.',
    round_1: { agent_a: agent('relevant', 'relevant'), agent_b: agent('irrelevant', 'irrelevant') },
    round_2: { agent_a: agent('relevant', 1), agent_b: agent('irrelevant', 0) },
    final_label: null,
    consensus: false,
    ...overrides,
  };
}

/** A BRIDGE row on which the agents agreed (a consensus label). */
export function bridgeConsensusRow(label: 'yes' | 'no', overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return bridgeRow({
    round_1: { agent_a: agent('relevant', label), agent_b: agent('irrelevant', label) },
    round_2: null,
    consensus: true,
    final_label: label === 'yes' ? 'relevant' : 'irrelevant',
    ...overrides,
  });
}

export const jsonl = (records: readonly unknown[]): string =>
  records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
