import type { Vote } from '../aggregate/index.js';
import type { BatchSettings } from '../db/models/index.js';
import type { Judgment } from '../domain/cases.js';
import { adaptiveTargets, decidedAfter, FIRST_VOTES, recollectTargets, type DecisionRule, type RecollectPolicy } from '../quality/index.js';

/**
 * How many votes a batch asks for, by its redundancy (`publish --redundancy`): `fixed`, every
 * item `voteTarget`; `adaptive`, two first and `voteTarget` where they disagree
 * (quality/adaptive-redundancy.ts). And how many it collects again when votes are lost, by
 * its `recollect` (quality/decided-majority.ts). One place for publishing, the follow-up and
 * the labels.
 */

export const isAdaptive = (settings: Pick<BatchSettings, 'redundancy'>): boolean => settings.redundancy === 'adaptive';

/** The batch's re-collection policy; batches published before the setting collected every lost vote again. */
export const recollectOf = (settings: Pick<BatchSettings, 'recollect'>): RecollectPolicy => settings.recollect ?? 'always';

/** Assignments a planned HIT is created with. */
export function firstAssignments(settings: Pick<BatchSettings, 'redundancy' | 'voteTarget'>): number {
  return isAdaptive(settings) ? Math.min(FIRST_VOTES, settings.voteTarget) : settings.voteTarget;
}

export interface VoteTargets {
  /** The votes an item needs unless `targets` says otherwise. */
  target: number;
  /** Per item, when it differs from `target` (adaptive: `voteTarget` where the first two votes disagree). */
  targets?: Map<string, number>;
  adaptive: boolean;
}

type TargetSettings = Pick<BatchSettings, 'redundancy' | 'voteTarget' | 'recollect'>;

/** The votes each item is asked for as planned, from its valid votes in submission order. */
export function voteTargets(settings: TargetSettings, valid: readonly Vote<Judgment>[]): VoteTargets {
  if (!isAdaptive(settings)) return { target: settings.voteTarget, adaptive: false };
  return { target: firstAssignments(settings), targets: adaptiveTargets(valid, settings.voteTarget), adaptive: true };
}

/**
 * The votes each item is collected up to when some are missing (extra assignments, new HITs):
 * as planned under `recollect: always` and adaptive redundancy (which already asks for a
 * third vote only where two disagree); under `when-undecided`, only what could still change
 * an item's majority.
 */
export function collectTargets(settings: TargetSettings, valid: readonly Vote<Judgment>[]): VoteTargets {
  if (isAdaptive(settings) || recollectOf(settings) === 'always') return voteTargets(settings, valid);
  return { ...recollectTargets(valid, settings.voteTarget), adaptive: false };
}

/** The target of one item. */
export const targetOf = (t: VoteTargets, item: string): number => t.targets?.get(item) ?? t.target;

/** The batch's rule of when an item is decided (quality/decided-items.ts). */
export const decisionRule = (settings: TargetSettings): DecisionRule => ({
  voteTarget: settings.voteTarget,
  adaptive: isAdaptive(settings),
  recollect: recollectOf(settings),
});

/**
 * Whether an item is decided: its target as planned, or, under `when-undecided` with fixed
 * redundancy, a decided majority (no vote collected again could change it).
 */
export function completeItems(settings: TargetSettings, valid: readonly Vote<Judgment>[]): (item: string, validVotes: number) => boolean {
  const after = decidedAfter(valid, decisionRule(settings));
  return (item, validVotes) => validVotes >= (after.get(item) ?? Infinity);
}
