import type { AssignmentDoc, HitDoc, LabelDoc } from '../db/models/index.js';
import { finalLabels, type DebateTurn, type EscalatedCase, type Judgment } from '../domain/cases.js';

/**
 * The items table of the console (pure): per real item its votes with the workers'
 * comments and "difficult" marks, the agents' debate, the label and where it came from
 * (`manual`, the crowd's majority, or still open), and whether it needs a person:
 * `unresolved` (a tie or no label) or `contested` (a label on split votes).
 */

export type LabelSource = 'manual' | 'crowd' | 'unresolved' | 'pending';

export interface ItemVote {
  workerId: string;
  assignmentId: string;
  answer: Judgment;
  counts: boolean;
  difficult: boolean;
  comment: string;
}

export interface ItemRow {
  item: string;
  queryId: string;
  chunkId: string;
  dataset: string;
  query: string;
  answers: string[];
  chunk: string;
  debate: DebateTurn[];
  /** Each agent's label in the last round it spoke. */
  agents: { agent: string; label: Judgment }[];
  votes: ItemVote[];
  yes: number;
  no: number;
  difficult: number;
  comments: number;
  label: Judgment | null;
  source: LabelSource;
  crowdLabel: Judgment | null;
  manual: { label: Judgment; note: string; who: string; at: string } | null;
  unresolved: boolean;
  contested: boolean;
}

export interface ItemsInput {
  hits: readonly HitDoc[];
  assignments: readonly AssignmentDoc[];
  labels: readonly LabelDoc[];
  /** Valid votes as `${item}\u0000${worker}`. */
  valid: ReadonlySet<string>;
  cases: ReadonlyMap<string, EscalatedCase>;
  manual: ReadonlyMap<string, { label: Judgment; note: string; who: string; at: Date | string }>;
}

export function itemsTable(input: ItemsInput): ItemRow[] {
  const votes = new Map<string, ItemVote[]>();
  for (const a of input.assignments) {
    for (const x of a.answers) {
      if (x.kind !== 'real' || !x.answer) continue;
      const list = votes.get(x.item) ?? [];
      list.push({
        workerId: a.workerId,
        assignmentId: a._id,
        answer: x.answer,
        counts: input.valid.has(`${x.item}\u0000${a.workerId}`) && a.review?.countsVotes !== false,
        difficult: x.difficult,
        comment: x.comment,
      });
      votes.set(x.item, list);
    }
  }
  return [...input.labels]
    .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
    .map((l) => {
      const c = input.cases.get(l._id);
      const m = input.manual.get(l._id);
      const v = votes.get(l._id) ?? [];
      const unresolved = !m && l.label === null && l.validVotes > 0 && (l.complete || l.decidedBy === 'unresolved');
      const contested = !m && l.label !== null && Math.min(l.votes.yes, l.votes.no) > 0;
      const source: LabelSource = m ? 'manual' : l.label !== null ? 'crowd' : unresolved ? 'unresolved' : 'pending';
      return {
        item: l._id,
        queryId: l.queryId,
        chunkId: l.chunkId,
        dataset: c?.dataset ?? 'default',
        query: c?.query ?? '',
        answers: c?.answers ?? [],
        chunk: c?.chunk ?? '',
        debate: c?.debate ?? [],
        agents: c ? [...finalLabels(c.debate)].map(([agent, label]) => ({ agent, label })) : [],
        votes: v,
        yes: l.votes.yes,
        no: l.votes.no,
        difficult: v.filter((x) => x.difficult).length,
        comments: v.filter((x) => x.comment.trim() !== '').length,
        label: m ? m.label : l.label,
        source,
        crowdLabel: l.label,
        manual: m ? { label: m.label, note: m.note, who: m.who, at: new Date(m.at).toISOString() } : null,
        unresolved,
        contested,
      };
    });
}
