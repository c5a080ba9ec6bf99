import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import type { HitState } from '../domain/hit.js';
import { accessFor, type Access } from '../domain/requirements.js';
import { isSystemQualification, systemQualification, type WorkerProfile, type WorkerStats } from '../domain/system-qualifications.js';
import type { HeldQualification } from '../domain/types.js';
import type { WorkerDoc, WorkerQualificationDoc } from '../store/models.js';

/**
 * What a worker may do with a HIT: blocks, and the HIT's qualification requirements
 * evaluated against the worker's system qualifications (computed from their profile and
 * their work here) and the custom qualifications they were granted.
 */

export const workerQualificationId = (typeId: string, workerId: string) => `${typeId}:${workerId}`;

export interface WorkerContext {
  worker: WorkerDoc;
  stats: WorkerStats;
  blocked: boolean;
  held: (qualificationTypeId: string) => HeldQualification | undefined;
}

export async function requireWorker(mp: Marketplace, workerId: string): Promise<WorkerDoc> {
  const worker = await mp.workerRecords.worker(workerId);
  if (!worker) throw new DomainError('WorkerDoesNotExist', `Worker ${workerId} does not exist on this marketplace.`);
  return worker;
}

export async function grantedQualification(mp: Marketplace, typeId: string, workerId: string): Promise<WorkerQualificationDoc | undefined> {
  const q = await mp.workerRecords.qualification({ typeId, workerId, recordId: workerQualificationId(typeId, workerId) });
  return q?.status === 'Granted' ? q : undefined;
}

/** Loads what is needed to judge `hits` for one worker (custom qualifications by `_id`). */
export async function workerContext(mp: Marketplace, workerId: string, hits: Iterable<HitState>): Promise<WorkerContext> {
  const custom = new Set<string>();
  for (const hit of hits) {
    for (const r of hit.props.qualificationRequirements)
      if (!isSystemQualification(r.QualificationTypeId)) custom.add(r.QualificationTypeId);
  }
  const [worker, blocked, granted] = await Promise.all([
    requireWorker(mp, workerId),
    mp.workerRecords.blocked(workerId),
    Promise.all([...custom].map((typeId) => grantedQualification(mp, typeId, workerId))),
  ]);
  const values = new Map<string, HeldQualification>();
  for (const q of granted) {
    if (q) values.set(q.typeId, q.integerValue !== undefined ? { integerValue: q.integerValue } : {});
  }
  const stats = mp.hits.statsFor(workerId);
  const profile: WorkerProfile = worker.profile;
  return {
    worker,
    stats,
    blocked,
    held: (id) => (isSystemQualification(id) ? systemQualification(id, profile, stats) : values.get(id)),
  };
}

export function accessTo(ctx: WorkerContext, hit: HitState): Access {
  if (ctx.blocked) return { discover: false, preview: false, accept: false, unmet: [] };
  return accessFor(hit.props.qualificationRequirements, ctx.held);
}
