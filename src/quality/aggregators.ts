import { majorityVote, type AggregationResult, type AggregatorId, type TiePolicy, type Vote } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import type { ScoredAssignment } from './counted-votes.js';
import { CATEGORIES, dawidSkeneWithEvidence } from './evidence-aggregation.js';

/** What an aggregator may use of a batch's votes. */
export interface AggregatorInput {
  /** Each item's first `voteTarget` valid votes: the protocol's majority of 3. */
  readonly used: readonly Vote<Judgment>[];
  /** Every scored assignment: Dawid–Skene takes every answer, with the checks as gold. */
  readonly scored: readonly ScoredAssignment[];
  readonly tiePolicy: TiePolicy<Judgment>;
}

/**
 * How each aggregator of aggregate/registry.ts labels a batch (pure). Keyed by the
 * registry's ids, so a new aggregator there fails to compile until it has a fit here.
 */
const FITS: { readonly [K in AggregatorId]: (input: AggregatorInput) => AggregationResult<Judgment> } = {
  majority: ({ used, tiePolicy }) => majorityVote<Judgment>({ tiePolicy }).fit(used, CATEGORIES),
  'dawid-skene': ({ scored, tiePolicy }) => dawidSkeneWithEvidence(scored, tiePolicy).result,
};

/** The batch's labels by the aggregator its settings name. */
export function fitAggregator(id: AggregatorId, input: AggregatorInput): AggregationResult<Judgment> {
  return FITS[id](input);
}
