import { z } from 'zod';
import { judgmentToRelevance, relevanceToJudgment, type ConsensusLabel, Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { compareIds, quote } from './ids.js';
import type { Qrels } from './types.js';

/**
 * Merging base qrels with DREAM consensus labels and human verdicts (pure).
 *
 * Precedence, highest first: a human-tier label (`human-majority`, or `llm-adjudicator`
 * when an adjudicator settled the case) > a `dream-consensus` label > the `base`
 * judgment. Labels are binary; when a label agrees with a graded base judgment in
 * polarity (base grade >= 1 and "yes", or base grade <= 0 and "no"), the base grade is
 * kept, so confirming a grade-2 judgment does not lower it to 1. When a label
 * contradicts the base (or a human label contradicts the consensus), the higher tier
 * wins and the pair is listed in `summary.conflicts` with every value, never silently.
 *
 * The same pair labelled twice in one tier with the same label is kept once (first
 * occurrence; counted in `summary.duplicates`); with different labels the merge refuses,
 * listing the pairs, since no tier says which one is right.
 */

export const LABEL_SOURCES = ['base', 'dream-consensus', 'human-majority', 'human-dawid-skene', 'llm-adjudicator', 'manual'] as const;
export const LabelSource = z.enum(LABEL_SOURCES);
export type LabelSource = z.infer<typeof LabelSource>;

/**
 * `human-majority`: the protocol's majority of the votes; `human-dawid-skene`: the crowd's votes by
 * Dawid–Skene (`export-qrels --aggregate ds`), which may go against a bare majority; `manual`: a person
 * decided the item by hand (`qrelay label`); it replaces the crowd's label.
 */
export const HumanLabelSource = z.enum(['human-majority', 'human-dawid-skene', 'llm-adjudicator', 'manual']);
export type HumanLabelSource = z.infer<typeof HumanLabelSource>;

const count = z.number().int().min(0);

export const Votes = z.object({ yes: count, no: count });
export type Votes = z.infer<typeof Votes>;

/** The final label of one escalated (query, chunk) pair, as aggregation produces it. */
export const HumanLabel = z
  .object({
    query_id: z.string().trim().min(1).max(512),
    chunk_id: z.string().trim().min(1).max(512),
    label: Judgment,
    votes: Votes,
    /** Workers whose answers were counted (a manual decision may have none). */
    workers: z.number().int().min(0),
    batch: z.string().min(1),
    dataset: z.string().min(1).default('default'),
    source: HumanLabelSource.default('human-majority'),
  })
  .refine((l) => l.source === 'manual' || l.workers >= 1, { message: 'a crowd label needs at least one worker', path: ['workers'] })
  .refine((l) => l.source !== 'human-majority' || l.votes.yes === l.votes.no || l.votes.yes > l.votes.no === (l.label === 'yes'), {
    message: 'a human-majority label must agree with the majority of its votes',
    path: ['label'],
  });
export type HumanLabel = z.infer<typeof HumanLabel>;

/** One output pair with its provenance (a JSONL line of the merged qrels). */
export interface QrelsEntry {
  query_id: string;
  doc_id: string;
  rel: number;
  source: LabelSource;
  /** The base grade, or null when the base did not judge the pair. */
  base_rel: number | null;
  votes: Votes | null;
  workers: number | null;
  batch: string | null;
  dataset: string | null;
}

export interface MergeCounts {
  /** Pairs with a consensus or human label. */
  labelled: number;
  /** Not in the base, now relevant. */
  holesFilled: number;
  /** In the base, polarity changed by a label. */
  flips: number;
  /** In the base, polarity confirmed by a label. */
  unchanged: number;
  /** Not in the base, now judged non-relevant. */
  newNonRelevant: number;
  /** Labelled pairs by the source that decided them. */
  bySource: Record<Exclude<LabelSource, 'base'>, number>;
}

export interface MergeConflict {
  query_id: string;
  doc_id: string;
  dataset: string;
  base: number | null;
  consensus: Judgment | null;
  human: Judgment | null;
  /** What the output holds. */
  kept: { source: LabelSource; rel: number };
}

export interface MergeSummary {
  basePairs: number;
  outputPairs: number;
  /** Base pairs no label touched. */
  baseOnly: number;
  overall: MergeCounts;
  /** Per dataset of the labels, sorted by dataset name. */
  datasets: Array<{ dataset: string } & MergeCounts>;
  conflicts: MergeConflict[];
  duplicates: { consensus: number; human: number };
}

export interface MergeInput {
  base: Qrels;
  consensus?: readonly ConsensusLabel[];
  human?: readonly HumanLabel[];
}

export interface MergeResult {
  /** Sorted by query id, then document id (ids.ts order). */
  entries: QrelsEntry[];
  summary: MergeSummary;
}

export class MergeInputError extends UserError {
  constructor(
    message: string,
    readonly pairs: Array<{ query_id: string; chunk_id: string; labels: string[] }>,
  ) {
    super(message);
    this.name = 'MergeInputError';
  }
}

const pairKey = (qid: string, docid: string) => `${qid}\u0000${docid}`;

interface Indexed<T> {
  byPair: Map<string, T>;
  duplicates: number;
}

function indexLabels<T extends { query_id: string; chunk_id: string; label: Judgment }>(
  labels: readonly T[],
  tier: string,
  describe: (l: T) => string,
): Indexed<T> {
  const byPair = new Map<string, T>();
  const clashes = new Map<string, { query_id: string; chunk_id: string; labels: string[] }>();
  let duplicates = 0;
  for (const label of labels) {
    const key = pairKey(label.query_id, label.chunk_id);
    const first = byPair.get(key);
    if (!first) {
      byPair.set(key, label);
    } else if (first.label === label.label) {
      duplicates++;
    } else {
      const clash = clashes.get(key) ?? { query_id: label.query_id, chunk_id: label.chunk_id, labels: [describe(first)] };
      clash.labels.push(describe(label));
      clashes.set(key, clash);
    }
  }
  if (clashes.size > 0) {
    const pairs = [...clashes.values()];
    const shown = pairs
      .slice(0, 3)
      .map((p) => `query ${quote(p.query_id)} chunk ${quote(p.chunk_id)}: ${p.labels.join(' vs ')}`)
      .join('; ');
    throw new MergeInputError(
      `${pairs.length} (query, chunk) pair${pairs.length === 1 ? ' has' : 's have'} conflicting ${tier} labels (${shown}${pairs.length > 3 ? '; …' : ''}); keep one label per pair before merging`,
      pairs,
    );
  }
  return { byPair, duplicates };
}

const emptyCounts = (): MergeCounts => ({
  labelled: 0,
  holesFilled: 0,
  flips: 0,
  unchanged: 0,
  newNonRelevant: 0,
  bySource: { 'dream-consensus': 0, 'human-majority': 0, 'human-dawid-skene': 0, 'llm-adjudicator': 0, manual: 0 },
});

/** Keeps a graded base value when the label agrees with it in polarity. */
function relevanceFor(label: Judgment, base: number | undefined): number {
  return base !== undefined && relevanceToJudgment(base) === label ? base : judgmentToRelevance(label);
}

export function mergeQrels(input: MergeInput): MergeResult {
  const consensus = indexLabels(input.consensus ?? [], 'dream-consensus', (l) => l.label);
  const human = indexLabels(input.human ?? [], 'human', (l) => `${l.label} (batch ${quote(l.batch)})`);

  const qids = new Set<string>(input.base.keys());
  const docsOf = new Map<string, Set<string>>();
  const addPair = (qid: string, docid: string) => {
    qids.add(qid);
    let docs = docsOf.get(qid);
    if (!docs) docsOf.set(qid, (docs = new Set()));
    docs.add(docid);
  };
  for (const [qid, docs] of input.base) for (const docid of docs.keys()) addPair(qid, docid);
  for (const l of consensus.byPair.values()) addPair(l.query_id, l.chunk_id);
  for (const l of human.byPair.values()) addPair(l.query_id, l.chunk_id);

  const overall = emptyCounts();
  const perDataset = new Map<string, MergeCounts>();
  const conflicts: MergeConflict[] = [];
  const entries: QrelsEntry[] = [];
  let basePairs = 0;
  let baseOnly = 0;

  for (const qid of [...qids].sort(compareIds)) {
    for (const docid of [...(docsOf.get(qid) ?? [])].sort(compareIds)) {
      const base = input.base.get(qid)?.get(docid);
      if (base !== undefined) basePairs++;
      const key = pairKey(qid, docid);
      const h = human.byPair.get(key);
      const c = consensus.byPair.get(key);
      if (!h && !c) {
        baseOnly++;
        entries.push({
          query_id: qid,
          doc_id: docid,
          rel: base!,
          source: 'base',
          base_rel: base!,
          votes: null,
          workers: null,
          batch: null,
          dataset: null,
        });
        continue;
      }
      const deciding = h ?? c!;
      const source: Exclude<LabelSource, 'base'> = h ? h.source : 'dream-consensus';
      const rel = relevanceFor(deciding.label, base);
      entries.push({
        query_id: qid,
        doc_id: docid,
        rel,
        source,
        base_rel: base ?? null,
        votes: h ? { ...h.votes } : null,
        workers: h ? h.workers : null,
        batch: h ? h.batch : null,
        dataset: deciding.dataset,
      });

      const counts = perDataset.get(deciding.dataset) ?? emptyCounts();
      perDataset.set(deciding.dataset, counts);
      const outcome: keyof Omit<MergeCounts, 'labelled' | 'bySource'> =
        base === undefined
          ? rel >= 1
            ? 'holesFilled'
            : 'newNonRelevant'
          : relevanceToJudgment(base) === deciding.label
            ? 'unchanged'
            : 'flips';
      for (const k of [overall, counts]) {
        k.labelled++;
        k[outcome]++;
        k.bySource[source]++;
      }

      const contradictsBase = base !== undefined && relevanceToJudgment(base) !== deciding.label;
      const humanOverridesConsensus = h !== undefined && c !== undefined && h.label !== c.label;
      if (contradictsBase || humanOverridesConsensus) {
        conflicts.push({
          query_id: qid,
          doc_id: docid,
          dataset: deciding.dataset,
          base: base ?? null,
          consensus: c ? c.label : null,
          human: h ? h.label : null,
          kept: { source, rel },
        });
      }
    }
  }

  const datasets = [...perDataset.keys()].sort(compareIds).map((dataset) => ({ dataset, ...perDataset.get(dataset)! }));
  return {
    entries,
    summary: {
      basePairs,
      outputPairs: entries.length,
      baseOnly,
      overall,
      datasets,
      conflicts,
      duplicates: { consensus: consensus.duplicates, human: human.duplicates },
    },
  };
}

/** Base qrels as entries (source `base`), for writing them in any output format. */
export function entriesFromQrels(qrels: Qrels): QrelsEntry[] {
  const entries: QrelsEntry[] = [];
  for (const qid of [...qrels.keys()].sort(compareIds)) {
    const docs = qrels.get(qid)!;
    for (const docid of [...docs.keys()].sort(compareIds)) {
      const rel = docs.get(docid)!;
      entries.push({
        query_id: qid,
        doc_id: docid,
        rel,
        source: 'base',
        base_rel: rel,
        votes: null,
        workers: null,
        batch: null,
        dataset: null,
      });
    }
  }
  return entries;
}

/** Entries back to qrels (for evaluating merged qrels without writing them). */
export function qrelsFromEntries(entries: Iterable<Pick<QrelsEntry, 'query_id' | 'doc_id' | 'rel'>>): Qrels {
  const qrels: Qrels = new Map();
  for (const e of entries) {
    let docs = qrels.get(e.query_id);
    if (!docs) qrels.set(e.query_id, (docs = new Map()));
    docs.set(e.doc_id, e.rel);
  }
  return qrels;
}
