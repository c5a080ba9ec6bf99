/**
 * Aggregation and agreement, pure: votes in, labels and measures out (no I/O).
 *
 *   const result = majorityVote<Judgment>().fit(votes, ['yes', 'no']);
 *   const kappa = fleissKappa.compute(votes, ['yes', 'no']);
 */
export { byCodeUnits, indexVotes, pairableVotes, type IndexedVotes, type ItemCounts, type Vote } from './votes.js';
export {
  DEFAULT_TIE_POLICY,
  labelsByItem,
  type AggregationResult,
  type Aggregator,
  type AggregatorName,
  type FinalTiePolicy,
  type ItemAggregate,
  type Resolution,
  type TiePolicy,
} from './aggregator.js';
export {
  AGGREGATOR_IDS,
  AGGREGATOR_SHORT_NAMES,
  AGGREGATORS,
  aggregatorOfShortName,
  DEFAULT_AGGREGATOR,
  type AggregatorId,
  type AggregatorInfo,
  type AggregatorShortName,
} from './registry.js';
export { majorityVote, type MajorityVoteOptions } from './majority-vote.js';
export {
  DAWID_SKENE_DEFAULTS,
  dawidSkene,
  type ConfusionCounts,
  type DawidSkeneOptions,
  type DawidSkeneResult,
  type WorkerConfusion,
} from './dawid-skene.js';
export type { AgreementMeasure, AgreementMeasureName, AgreementResult } from './agreement.js';
export { fleissKappa, type FleissKappaResult } from './fleiss-kappa.js';
export { krippendorffAlpha, type KrippendorffAlphaResult } from './krippendorff-alpha.js';
export {
  agreementInterval,
  agreementIntervalIndexed,
  type AgreementInterval,
  type AgreementIntervalOptions,
} from './agreement-interval.js';
