import type {
  CreateWorkerBlockRequest,
  DeleteWorkerBlockRequest,
  ListWorkerBlocksRequest,
  NotifyWorkersFailureStatus,
  NotifyWorkersRequest,
} from '@aws-sdk/client-mturk';
import { sendWorkerMessage } from '../services/messages.js';
import type { BlockDoc } from '../store/models.js';
import { as, checkFeedback, invalid, paginate, type Operation } from './common.js';

const createWorkerBlock: Operation = async (mp, raw) => {
  const input = as<CreateWorkerBlockRequest>(raw);
  checkFeedback(input.Reason, 'Reason');
  await mp.models.blocks.replaceOne(
    { _id: input.WorkerId! },
    { _id: input.WorkerId!, reason: input.Reason!, createdAt: mp.clock.now() },
    { upsert: true },
  );
  mp.workerRecords.forget(input.WorkerId!);
  return {};
};

/** Unblocking a worker who is not blocked succeeds, as on MTurk. */
const deleteWorkerBlock: Operation = async (mp, raw) => {
  const input = as<DeleteWorkerBlockRequest>(raw);
  await mp.models.blocks.deleteOne({ _id: input.WorkerId! });
  mp.workerRecords.forget(input.WorkerId!);
  return {};
};

const listWorkerBlocks: Operation = async (mp, raw) => {
  const input = as<ListWorkerBlocksRequest>(raw);
  const blocks = await mp.models.blocks.find({}).sort({ _id: 1 }).lean<BlockDoc[]>();
  const page = paginate('ListWorkerBlocks', {}, blocks, (b) => b._id, input);
  return {
    NextToken: page.NextToken,
    NumResults: page.NumResults,
    WorkerBlocks: page.items.map((b) => ({ WorkerId: b._id, Reason: b.reason })),
  };
};

/** Messages reach the worker's inbox on the worker site; like MTurk, only workers whose work you approved or rejected. */
const notifyWorkers: Operation = async (mp, raw) => {
  const input = as<NotifyWorkersRequest>(raw);
  const subject = input.Subject!;
  const text = input.MessageText!;
  const ids = input.WorkerIds!;
  if (subject.length === 0 || subject.length > 200) throw invalid('Subject', `must be 1 to 200 characters (got ${subject.length})`);
  if (text.length === 0 || text.length > 4096) throw invalid('MessageText', `must be 1 to 4096 characters (got ${text.length})`);
  if (ids.length === 0 || ids.length > 100) throw invalid('WorkerIds', `must list 1 to 100 workers (got ${ids.length})`);
  const failures: NotifyWorkersFailureStatus[] = [];
  for (const workerId of [...new Set(ids)]) {
    const exists = await mp.models.workers.exists({ _id: workerId });
    const stats = mp.hits.statsFor(workerId);
    if (!exists || stats.approved + stats.rejected === 0) {
      failures.push({
        NotifyWorkersFailureCode: 'HardFailure',
        NotifyWorkersFailureMessage: exists
          ? `Cannot notify worker ${workerId}: you have not approved or rejected any of their work`
          : `Worker ${workerId} does not exist`,
        WorkerId: workerId,
      });
      continue;
    }
    await sendWorkerMessage(mp, workerId, subject, text);
  }
  return { NotifyWorkersFailureStatuses: failures };
};

export const workerOperations: Record<string, Operation> = {
  CreateWorkerBlock: createWorkerBlock,
  DeleteWorkerBlock: deleteWorkerBlock,
  ListWorkerBlocks: listWorkerBlocks,
  NotifyWorkers: notifyWorkers,
};
