import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import { approveAssignment, assignmentIn, rejectAssignment, type ApproveOptions } from '../domain/hit.js';
import { approvalCharge } from '../domain/money.js';
import { hitIdOfAssignment } from '../ids.js';
import { mutateHit } from './hit-writer.js';

/**
 * Approving pays: reward plus fee, debited under the idempotency key
 * `approval:<AssignmentId>`, then the assignment becomes Approved in the same HIT lock.
 * If the process dies between the two writes, the ledger entry is there and the
 * assignment is not: `reconcileApprovals` finishes the approval (at start-up and in the
 * background loop), and an approval retried by the client pays nothing twice.
 */

export const approvalKey = (assignmentId: string) => `approval:${assignmentId}`;

export function hitIdFor(mp: Marketplace, assignmentId: string): string {
  const hitId = hitIdOfAssignment(assignmentId);
  if (!hitId || !mp.hits.get(hitId)) throw new DomainError('AssignmentDoesNotExist', `Assignment ${assignmentId} does not exist.`);
  return hitId;
}

const unsettled = new WeakMap<Marketplace, Set<string>>();
function unsettledOf(mp: Marketplace): Set<string> {
  let set = unsettled.get(mp);
  if (!set) unsettled.set(mp, (set = new Set()));
  return set;
}

export async function approve(mp: Marketplace, assignmentId: string, opts: ApproveOptions): Promise<void> {
  const hitId = hitIdFor(mp, assignmentId);
  const open = unsettledOf(mp);
  await mutateHit(mp, hitId, async (hit, now) => {
    const next = approveAssignment(hit, assignmentId, opts, now);
    const assignment = assignmentIn(hit, assignmentId)!;
    const charge = approvalCharge(hit.props.rewardCents, hit.maxAssignments, hit.props.qualificationRequirements);
    open.add(assignmentId);
    await mp.ledger.post(
      {
        key: approvalKey(assignmentId),
        kind: 'approval',
        amountCents: -charge.totalCents,
        rewardCents: charge.rewardCents,
        feeCents: charge.feeCents,
        at: now,
        hitId,
        assignmentId,
        workerId: assignment.workerId,
      },
      { requireCover: true },
    );
    return { hit: next, result: undefined };
  }).catch((err: unknown) => {
    if (!mp.ledger.get(approvalKey(assignmentId))) open.delete(assignmentId);
    throw err;
  });
  open.delete(assignmentId);
}

export async function reject(mp: Marketplace, assignmentId: string, feedback: string): Promise<void> {
  const hitId = hitIdFor(mp, assignmentId);
  await mutateHit(mp, hitId, (hit, now) => ({ hit: rejectAssignment(hit, assignmentId, feedback, now), result: undefined }));
}

/** Approvals that were paid but whose assignment did not become Approved (a crash between the two writes). */
export function findUnsettledApprovals(mp: Marketplace): string[] {
  const out: string[] = [];
  for (const entry of mp.ledger.all()) {
    if (entry.kind !== 'approval' || !entry.assignmentId || !entry.hitId) continue;
    const a = mp.hits.get(entry.hitId)?.assignments.find((x) => x.id === entry.assignmentId);
    if (a && a.status !== 'Approved') out.push(entry.assignmentId);
  }
  return out;
}

export function noteUnsettled(mp: Marketplace, assignmentIds: string[]): void {
  for (const id of assignmentIds) unsettledOf(mp).add(id);
}

/** Completes paid approvals: the money moved, so the assignment is approved. */
export async function reconcileApprovals(mp: Marketplace): Promise<number> {
  const open = unsettledOf(mp);
  let done = 0;
  for (const assignmentId of [...open]) {
    const entry = mp.ledger.get(approvalKey(assignmentId));
    if (!entry?.hitId) {
      open.delete(assignmentId);
      continue;
    }
    await mutateHit(mp, entry.hitId, (hit, now) => {
      const a = assignmentIn(hit, assignmentId);
      if (!a || a.status === 'Approved' || a.status === 'Accepted') return { hit, result: undefined };
      return { hit: approveAssignment(hit, assignmentId, { overrideRejection: true }, now), result: undefined };
    }).then(
      () => {
        open.delete(assignmentId);
        done++;
      },
      (err: unknown) => mp.logger.error({ err, assignmentId }, 'could not complete a paid approval; retrying later'),
    );
  }
  return done;
}
