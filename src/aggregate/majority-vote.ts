import {
  checkTiePolicy,
  DEFAULT_TIE_POLICY,
  itemAggregates,
  type AggregationResult,
  type Aggregator,
  type TiePolicy,
} from './aggregator.js';
import { indexVotes, type Vote } from './votes.js';

export interface MajorityVoteOptions<L extends string> {
  /** Default `{ kind: 'unresolved' }`: a tie leaves the item without a label, flagged for more votes. */
  readonly tiePolicy?: TiePolicy<L>;
}

/**
 * Majority vote: each item gets the category with the most votes; `probabilities` are
 * the vote shares. With 3 votes on a yes/no question there is never a tie; with 2 or 4
 * votes there can be, and the tie policy decides (see TiePolicy). Unlike crowd-kit, whose
 * MajorityVote returns whichever tied label pandas lists first, a tie here is never
 * decided silently: it is reported in `tie` and `decidedBy`.
 */
export function majorityVote<L extends string>(options: MajorityVoteOptions<L> = {}): Aggregator<L> {
  const tiePolicy: TiePolicy<L> = options.tiePolicy ?? DEFAULT_TIE_POLICY;
  return {
    name: 'MajorityVote',
    fit(votes: readonly Vote<L>[], categories: readonly L[]): AggregationResult<L> {
      const data = indexVotes(votes, categories);
      checkTiePolicy(tiePolicy, categories);
      const K = categories.length;
      const shares = (i: number) => {
        const counts = data.counts.subarray(i * K, (i + 1) * K);
        const total = counts.reduce((a, b) => a + b, 0);
        return counts.map((c) => c / total);
      };
      const items = itemAggregates(data, shares, tiePolicy);
      return { aggregator: 'MajorityVote', categories: [...categories], items, unresolved: items.filter((it) => it.label === null).length };
    },
  };
}
