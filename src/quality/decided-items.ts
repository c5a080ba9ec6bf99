import type { Vote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';
import { FIRST_VOTES } from './adaptive-redundancy.js';
import { decidingVotes, leading, type RecollectPolicy } from './decided-majority.js';

/**
 * When an item is decided (pure): it has the votes the batch asks of it, so no vote still to
 * come is needed. One rule for every page, chart, report and status, so that they count the
 * same items: under fixed redundancy, `voteTarget` valid votes; under adaptive redundancy, two
 * that agree or `voteTarget` once the first two disagree; and under `recollect: when-undecided`
 * (fixed redundancy) also as soon as one answer holds a majority of `voteTarget` among its
 * first votes (two agreeing votes of three), as no further vote could change its label.
 */

export interface DecisionRule {
  readonly voteTarget: number;
  readonly adaptive: boolean;
  readonly recollect: RecollectPolicy;
}

/** Whether an item with these answers (its valid votes in submission order) is decided. */
function decided(rule: DecisionRule, labels: readonly Judgment[]): boolean {
  const first = labels.slice(0, rule.voteTarget);
  if (rule.adaptive) {
    const split = first.length >= FIRST_VOTES && first[0] !== first[1];
    return labels.length >= (split ? rule.voteTarget : Math.min(FIRST_VOTES, rule.voteTarget));
  }
  if (labels.length >= rule.voteTarget) return true;
  if (rule.recollect !== 'when-undecided') return false;
  return leading(first) >= decidingVotes(rule.voteTarget);
}

/**
 * Per decided item, how many of its valid votes (`votes` in submission order) it took to be
 * decided: the item was decided when that vote came in. Items not decided are absent.
 */
export function decidedAfter(votes: readonly Vote<Judgment>[], rule: DecisionRule): Map<string, number> {
  const byItem = new Map<string, Judgment[]>();
  for (const v of votes) {
    const labels = byItem.get(v.item);
    if (labels) labels.push(v.label);
    else byItem.set(v.item, [v.label]);
  }
  const after = new Map<string, number>();
  for (const [item, labels] of byItem) {
    for (let k = 1; k <= labels.length; k++) {
      if (decided(rule, labels.slice(0, k))) {
        after.set(item, k);
        break;
      }
    }
  }
  return after;
}
