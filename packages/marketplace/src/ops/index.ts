import { operationNames } from '../model/model.js';
import { assignmentOperations } from './assignments.js';
import type { Operation } from './common.js';
import { hitOperations } from './hits.js';
import { moneyOperations } from './money.js';
import { notificationOperations } from './notifications.js';
import { qualificationOperations } from './qualifications.js';
import { workerOperations } from './workers.js';

/** Every operation of the MTurk Requester API 2017-01-17, by name. */
export const operations: Record<string, Operation> = {
  ...hitOperations,
  ...assignmentOperations,
  ...qualificationOperations,
  ...workerOperations,
  ...moneyOperations,
  ...notificationOperations,
};

const missing = operationNames.filter((name) => !operations[name]);
if (missing.length > 0) throw new Error(`the marketplace does not implement ${missing.join(', ')}`);
