import { checkTiePolicy } from '../aggregate/aggregator.js';
import type { TiePolicy } from '../aggregate/index.js';
import { quote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { FEDERAL_MINIMUM_WAGE_CENTS_PER_HOUR } from '../hits/presets.js';
import { DEFAULT_VOTE_TARGET, type DecisionRule, type RecollectPolicy, type WorkerFlagThresholds } from '../quality/index.js';
import type { ArmName } from '../experiment/compare.js';

export interface ReportOptions {
  /** Valid votes an item needs (default 3, the DREAM protocol). */
  readonly voteTarget?: number;
  /** Printed as `generatedAt` (ISO 8601); the builder reads no clock, so output depends on input only. */
  readonly generatedAt?: string;
  /** Effective hourly pay below this is flagged; default the US federal minimum wage, 725 cents. */
  readonly minimumHourlyPayCents?: number;
  /** Throughput bucket width; default the smallest of 1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 3 h, 6 h, 12 h, 1 d, 2 d, 7 d giving at most 48 buckets. */
  readonly throughputBucketSeconds?: number;
  readonly flagThresholds?: Partial<WorkerFlagThresholds>;
  /** How a tied item is labelled (default: left unresolved). */
  readonly tiePolicy?: TiePolicy<Judgment>;
  /**
   * How the human labels are decided, as the batch was set up (BatchSettings.aggregator):
   * `majority` (default) of each item's first `voteTarget` valid votes, or `dawid-skene`
   * over all valid votes.
   */
  readonly aggregator?: ReportAggregator;
  /** How the batch asks for votes (BatchSettings.redundancy): with `adaptive`, two that agree decide an item. Default `fixed`. */
  readonly redundancy?: 'fixed' | 'adaptive';
  /**
   * BatchSettings.recollect: with `when-undecided`, an item is decided as soon as one answer
   * holds a majority of `voteTarget` (quality/decided-items.ts). Default `always`.
   */
  readonly recollect?: RecollectPolicy;
  /** The input's times are a simulated marketplace's (the demo, `qrelay simulate`): the report labels them so. */
  readonly simulatedClock?: boolean;
  /** The debate experiment (docs/experiment.md): each worker's recorded arm and the batch's seed; the report then compares the arms. */
  readonly experiment?: { readonly arms: ReadonlyMap<string, ArmName>; readonly seed: string };
}

export type ReportAggregator = 'majority' | 'dawid-skene';

export interface ResolvedReportOptions {
  readonly voteTarget: number;
  readonly generatedAt: string | null;
  readonly minimumHourlyPayCents: number;
  readonly throughputBucketSeconds: number | null;
  readonly flagThresholds: Partial<WorkerFlagThresholds>;
  readonly tiePolicy: TiePolicy<Judgment>;
  readonly aggregator: ReportAggregator;
  /** When an item is decided: from `voteTarget`, `redundancy` and `recollect`. */
  readonly decision: DecisionRule;
  readonly simulatedClock: boolean;
}

const wholeNumber = (value: unknown, min: number, name: string): number => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    throw new UserError(`report options.${name}: ${quote(value)} is not a whole number >= ${min}`);
  return value;
};

const oneOf = <T extends string>(value: unknown, allowed: readonly T[], name: string): T => {
  if (!(allowed as readonly unknown[]).includes(value))
    throw new UserError(`report options.${name}: ${quote(value)} is not ${allowed.map((a) => `"${a}"`).join(' or ')}`);
  return value as T;
};

export function resolveReportOptions(options: ReportOptions = {}): ResolvedReportOptions {
  const generatedAt = options.generatedAt ?? null;
  if (generatedAt !== null && (typeof generatedAt !== 'string' || Number.isNaN(Date.parse(generatedAt)))) {
    throw new UserError(`report options.generatedAt: ${quote(generatedAt)} is not an ISO 8601 timestamp`);
  }
  const aggregator = oneOf(options.aggregator ?? 'majority', ['majority', 'dawid-skene'], 'aggregator');
  const voteTarget = wholeNumber(options.voteTarget ?? DEFAULT_VOTE_TARGET, 1, 'voteTarget');
  const tiePolicy = options.tiePolicy ?? { kind: 'unresolved' };
  checkTiePolicy(tiePolicy, ['yes', 'no'], 'report options.tiePolicy');
  return {
    voteTarget,
    generatedAt,
    minimumHourlyPayCents: wholeNumber(options.minimumHourlyPayCents ?? FEDERAL_MINIMUM_WAGE_CENTS_PER_HOUR, 0, 'minimumHourlyPayCents'),
    throughputBucketSeconds:
      options.throughputBucketSeconds === undefined ? null : wholeNumber(options.throughputBucketSeconds, 1, 'throughputBucketSeconds'),
    flagThresholds: options.flagThresholds ?? {},
    tiePolicy,
    aggregator,
    simulatedClock: options.simulatedClock === true,
    decision: {
      voteTarget,
      adaptive: oneOf(options.redundancy ?? 'fixed', ['fixed', 'adaptive'], 'redundancy') === 'adaptive',
      recollect: oneOf(options.recollect ?? 'always', ['always', 'when-undecided'], 'recollect'),
    },
  };
}
