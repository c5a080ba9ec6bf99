import type { Judgment } from '../domain/cases.js';
import type { ScoredAssignment } from './counted-votes.js';
import { expectedAnswersOf } from './hit-views.js';

/**
 * Cross-batch reputation (issue 16, item 4), pure: a worker's record in one batch, the sum of
 * their records across batches, and the score 0–100 that qrelay stores as the value of the
 * target's `qrelay-reputation` qualification (src/pipeline/reputation.ts).
 *
 * The score. Every answer with a reference is a trial: an attention check (its known answer)
 * and a real item with a final label (agreement; the worker's own vote left out where it
 * decided the label). The references split into the two classes, "yes" and "no", and the
 * worker's accuracy on each class (sensitivity and specificity) has the prior Beta(6, 2):
 * mean 0.75, worth 8 answers, so that little evidence stays near the prior and a HIT or two
 * cannot swing the score far. The score is Youden's J of the posterior means,
 * 100 × (E[sensitivity] + E[specificity] − 1), clamped to [0, 100]: answers that ignore the
 * item (random clicks at any rate of "yes", always yes, always no) have J = 0 whatever the
 * share of relevant items, and always right is 100. With no evidence J = 0.5, the neutral 50;
 * a careful worker (about 0.9 on each class) rises towards 80, a worker whose answers ignore
 * the items falls towards 0.
 * Two records cap the score whatever the answers say: a soft block in any batch (a stop
 * decided with ≥ 99% confidence that the worker was not doing the task) caps it at 10, and an
 * `llm-assisted` flag (answers that follow the debating agents, paste or canary evidence) at
 * 40: below the neutral score, so a preset asking for the neutral score keeps such workers
 * out while one asking for less lets them in.
 */

export const NEUTRAL_REPUTATION = 50;

export interface ReputationPolicy {
  /** Beta prior of the worker's accuracy: `alpha` right and `beta` wrong pseudo-answers. */
  readonly prior: { readonly alpha: number; readonly beta: number };
  /** Highest score of a worker with a soft block on record. */
  readonly blockCap: number;
  /** Highest score of a worker flagged `llm-assisted` in some batch. */
  readonly llmFlagCap: number;
}

export const DEFAULT_REPUTATION_POLICY: ReputationPolicy = { prior: { alpha: 6, beta: 2 }, blockCap: 10, llmFlagCap: 40 };

export interface Tally {
  readonly answered: number;
  readonly right: number;
}

/** What one batch (or several, summed) knows of a worker. */
export interface ReputationRecord {
  /** Attention checks by their known answer: how many answered, how many answered right. */
  readonly checks: { readonly yes: Tally; readonly no: Tally };
  /** Real items with a final label, by that label: how many compared, how many agreed. */
  readonly agreement: { readonly yes: Tally; readonly no: Tally };
  /** Soft blocks (worker-level decisions), with the batch and the reason. */
  readonly blocks: readonly { readonly batch: string; readonly reason: string }[];
  /** Batches in which the worker was flagged `llm-assisted`. */
  readonly llmFlags: readonly string[];
}

const zero: Tally = { answered: 0, right: 0 };
export const EMPTY_RECORD: ReputationRecord = {
  checks: { yes: zero, no: zero },
  agreement: { yes: zero, no: zero },
  blocks: [],
  llmFlags: [],
};

const add = (a: Tally, b: Tally): Tally => ({ answered: a.answered + b.answered, right: a.right + b.right });

/** The records of several batches as one. */
export function sumRecords(records: readonly ReputationRecord[]): ReputationRecord {
  return records.reduce(
    (acc, r) => ({
      checks: { yes: add(acc.checks.yes, r.checks.yes), no: add(acc.checks.no, r.checks.no) },
      agreement: { yes: add(acc.agreement.yes, r.agreement.yes), no: add(acc.agreement.no, r.agreement.no) },
      blocks: [...acc.blocks, ...r.blocks],
      llmFlags: [...acc.llmFlags, ...r.llmFlags],
    }),
    EMPTY_RECORD,
  );
}

const sameTally = (a: Tally, b: Tally) => a.answered === b.answered && a.right === b.right;

/** Whether two records hold the same evidence (field by field: a database may answer an object's keys in another order). */
export function sameRecord(a: ReputationRecord, b: ReputationRecord): boolean {
  const blocks = (r: ReputationRecord) => r.blocks.map((x) => [x.batch, x.reason]);
  return (
    sameTally(a.checks.yes, b.checks.yes) &&
    sameTally(a.checks.no, b.checks.no) &&
    sameTally(a.agreement.yes, b.agreement.yes) &&
    sameTally(a.agreement.no, b.agreement.no) &&
    JSON.stringify(blocks(a)) === JSON.stringify(blocks(b)) &&
    JSON.stringify(a.llmFlags) === JSON.stringify(b.llmFlags)
  );
}

export interface ReputationScore {
  /** 0–100, an integer (a qualification's IntegerValue). */
  readonly score: number;
  /** Answers with a reference (checks and final labels), and how many were right. */
  readonly answers: number;
  readonly right: number;
  /** Posterior means of the accuracy on items whose reference is "yes" (sensitivity) and "no" (specificity). */
  readonly sensitivity: number;
  readonly specificity: number;
  /** The cap that applied, if any. */
  readonly cappedBy: 'soft-block' | 'llm-assisted' | null;
  /** One line for people. */
  readonly reason: string;
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const both = (r: ReputationRecord, c: 'yes' | 'no'): Tally => add(r.checks[c], r.agreement[c]);
const sum = (t: { yes: Tally; no: Tally }): Tally => add(t.yes, t.no);

export function reputationScore(record: ReputationRecord, policy: ReputationPolicy = DEFAULT_REPUTATION_POLICY): ReputationScore {
  const { alpha, beta } = policy.prior;
  if (!(alpha > 0 && beta > 0)) throw new RangeError(`reputation prior: alpha and beta must be positive (got ${alpha}, ${beta})`);
  const posterior = (t: Tally, c: string) => {
    if (t.right < 0 || t.right > t.answered) throw new RangeError(`reputation record: ${t.right} right answers of ${t.answered} (${c})`);
    return (alpha + t.right) / (alpha + beta + t.answered);
  };
  const yes = both(record, 'yes');
  const no = both(record, 'no');
  const sensitivity = posterior(yes, 'references "yes"');
  const specificity = posterior(no, 'references "no"');
  const answers = yes.answered + no.answered;
  const right = yes.right + no.right;
  const fromAnswers = Math.round(Math.min(100, Math.max(0, 100 * (sensitivity + specificity - 1))));
  const checks = sum(record.checks);
  const labels = sum(record.agreement);
  const evidence =
    answers === 0
      ? 'no answers with a known or final label yet'
      : `${right} of ${answers} answers right (checks ${checks.right}/${checks.answered}, final labels ${labels.right}/${labels.answered}); estimated accuracy on "yes" items ${pct(sensitivity)}, on "no" items ${pct(specificity)}`;
  const base = { answers, right, sensitivity, specificity };
  if (record.blocks.length > 0 && fromAnswers > policy.blockCap) {
    const b = record.blocks[0]!;
    const more = record.blocks.length > 1 ? ` and ${record.blocks.length - 1} more` : '';
    return {
      ...base,
      score: policy.blockCap,
      cappedBy: 'soft-block',
      reason: `stopped in batch ${b.batch} (${b.reason})${more}: at most ${policy.blockCap}; ${evidence}`,
    };
  }
  if (record.llmFlags.length > 0 && fromAnswers > policy.llmFlagCap) {
    return {
      ...base,
      score: policy.llmFlagCap,
      cappedBy: 'llm-assisted',
      reason: `flagged llm-assisted in batch ${record.llmFlags.join(', ')}: at most ${policy.llmFlagCap}; ${evidence}`,
    };
  }
  return { ...base, score: fromAnswers, cappedBy: null, reason: evidence };
}

/** A batch's final label of an item, as the reputation reads it. */
export interface FinalLabel {
  readonly label: Judgment;
  readonly votes: { readonly yes: number; readonly no: number };
  /** Workers whose votes the label was decided from. */
  readonly workers: readonly string[];
}

export interface BatchRecordInput {
  readonly batch: string;
  /** Every submitted assignment, scored against its HIT (those a person excluded are left out). */
  readonly scored: readonly ScoredAssignment[];
  /** Final labels by item id (items without a final label are left out). */
  readonly labels: ReadonlyMap<string, FinalLabel>;
  /** Soft blocks of the batch: worker -> reason. */
  readonly blocks: ReadonlyMap<string, string>;
  /** Workers flagged `llm-assisted` in the batch. */
  readonly llmFlagged: ReadonlySet<string>;
}

/**
 * Each worker's record in one batch. A worker's first answer to an item is the one compared
 * (a worker may meet an item twice through a reposted HIT). Where the worker's own counted
 * vote decided the label (without it the label's side has no more votes than the other), the
 * item is left out: a label cannot vouch for the vote that made it.
 */
export function batchReputationRecords(input: BatchRecordInput): Map<string, ReputationRecord> {
  const acc = new Map<string, { checks: { yes: Tally; no: Tally }; agreement: { yes: Tally; no: Tally }; seen: Set<string> }>();
  const entry = (worker: string) => {
    let e = acc.get(worker);
    if (!e) acc.set(worker, (e = { checks: { yes: zero, no: zero }, agreement: { yes: zero, no: zero }, seen: new Set() }));
    return e;
  };
  for (const { assignment, hit } of input.scored) {
    if (assignment.overridden === 'excluded') continue;
    const e = entry(assignment.worker);
    const expected = expectedAnswersOf(hit);
    for (const a of assignment.answers) {
      if (e.seen.has(a.item)) continue;
      e.seen.add(a.item);
      const known = expected.get(a.item);
      if (known) {
        e.checks[known] = add(e.checks[known], { answered: 1, right: a.label === known ? 1 : 0 });
        continue;
      }
      const final = input.labels.get(a.item);
      if (!final) continue;
      if (a.label === final.label && final.workers.includes(assignment.worker)) {
        const other = final.label === 'yes' ? final.votes.no : final.votes.yes;
        if (final.votes[final.label] - 1 <= other) continue;
      }
      e.agreement[final.label] = add(e.agreement[final.label], { answered: 1, right: a.label === final.label ? 1 : 0 });
    }
  }
  const workers = new Set([...acc.keys(), ...input.blocks.keys(), ...input.llmFlagged]);
  const out = new Map<string, ReputationRecord>();
  for (const worker of [...workers].sort()) {
    const e = acc.get(worker);
    const reason = input.blocks.get(worker);
    out.set(worker, {
      checks: e?.checks ?? EMPTY_RECORD.checks,
      agreement: e?.agreement ?? EMPTY_RECORD.agreement,
      blocks: reason !== undefined ? [{ batch: input.batch, reason }] : [],
      llmFlags: input.llmFlagged.has(worker) ? [input.batch] : [],
    });
  }
  return out;
}
