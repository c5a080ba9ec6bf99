import type { Vote } from '../aggregate/index.js';
import type { BatchSettings } from '../db/models/index.js';
import type { Judgment } from '../domain/cases.js';
import { adaptiveTargets, FIRST_VOTES } from '../quality/index.js';

/**
 * How many votes a batch asks for, by its redundancy (`publish --redundancy`): `fixed`, every
 * item `voteTarget`; `adaptive`, two first and `voteTarget` where they disagree
 * (quality/adaptive-redundancy.ts). One place for publishing, the follow-up and the labels.
 */

export const isAdaptive = (settings: Pick<BatchSettings, 'redundancy'>): boolean => settings.redundancy === 'adaptive';

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

/** The votes each item needs, from its valid votes in submission order. */
export function voteTargets(settings: Pick<BatchSettings, 'redundancy' | 'voteTarget'>, valid: readonly Vote<Judgment>[]): VoteTargets {
  if (!isAdaptive(settings)) return { target: settings.voteTarget, adaptive: false };
  return { target: firstAssignments(settings), targets: adaptiveTargets(valid, settings.voteTarget), adaptive: true };
}

/** The target of one item. */
export const targetOf = (t: VoteTargets, item: string): number => t.targets?.get(item) ?? t.target;
