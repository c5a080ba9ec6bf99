/**
 * Crowd quality control, pure: attention-check scoring, review decisions, extra
 * assignments, per-worker statistics, accuracy against a hidden truth (no I/O).
 */
export type { Answer, AssignmentRecord, AssignmentStatus, HitRecord, KnownAnswer } from './types.js';
export { scoreAttentionChecks, type AttentionCheckScore, type CheckFailure, type PolarityResult } from './attention-checks.js';
export { assignmentCounts, countedVotes, indexHits, scoreAssignments, validVoteCounts, type ScoredAssignment } from './counted-votes.js';
export {
  checkReviewPolicy,
  decideReview,
  DEFAULT_REVIEW_POLICY,
  type ReviewAction,
  type ReviewDecision,
  type ReviewPolicy,
} from './review.js';
export {
  DEFAULT_VOTE_TARGET,
  planExtraAssignments,
  type ExtraAssignmentsInput,
  type ExtraAssignmentsPlan,
  type ExtraAssignmentsRequest,
  type HitAssignmentState,
  type StuckItem,
} from './extra-assignments.js';
export {
  DEFAULT_FLAG_THRESHOLDS,
  median,
  workerStatistics,
  type PassRate,
  type WorkerFlag,
  type WorkerFlagThresholds,
  type WorkerStats,
} from './worker-stats.js';
export { balancedAccuracy, labelAccuracy, type AccuracyResult, type BalancedAccuracyResult, type ClassRecall } from './accuracy.js';
export {
  DEFAULT_VERDICT_POLICY,
  workerVerdict,
  type BetaPrior,
  type SpeedModel,
  type WorkerEvidence,
  type WorkerVerdict,
  type WorkerVerdictPolicy,
} from './worker-verdict.js';
export { answerOutcomes, workerEvidence, type Reference } from './worker-evidence.js';
export { DEFAULT_MIXTURE_FIT, fitVerdictPolicy, type MixtureFit, type MixtureFitOptions } from './worker-mixture.js';
export { batchVerdicts, type BatchVerdicts } from './batch-verdicts.js';
export { decideWithStanding, type WorkerStanding } from './worker-review.js';
export { liftedStops, recounts, type RevisitedAssignment } from './revisit.js';
export { assignmentSpeeds, detectDrift, driftPolicy, withinSpread, type Drift, type DriftPolicy, type DriftSegment } from './drift.js';
export {
  binomialUpperTail,
  DEFAULT_LLM_POLICY,
  llmAssistedVerdict,
  type AgentBaseline,
  type ItemObservation,
  type LlmAssistedPolicy,
  type LlmAssistedVerdict,
} from './llm-assisted.js';
export { fitAggregator, type AggregatorInput } from './aggregators.js';
export {
  confusionPriorFromEvidence,
  dawidSkeneWithEvidence,
  evidenceVotes,
  labelDifferences,
  type EvidenceDawidSkene,
  type EvidenceVotes,
  type LabelDifference,
} from './evidence-aggregation.js';
export {
  bayesOptimalLabels,
  type BayesOptimalInput,
  type BayesOptimalResult,
  type BayesVote,
  type ClassAccuracy,
} from './bayes-optimal.js';
export {
  adaptiveCostShare,
  adaptiveTargets,
  DREAM_AGREEMENT,
  FIRST_VOTES,
  pairwiseDisagreement,
  repostInsteadOfExtending,
} from './adaptive-redundancy.js';
export { decidedItems, decidingVotes, recollectTargets, type RecollectPolicy } from './decided-majority.js';
export { decidedAfter, type DecisionRule } from './decided-items.js';
