/** The actions' models live with the others in src/db/models/actions.ts: the pipeline reads and writes them too. */
export {
  actionModels,
  type ActionModels,
  type AuditDoc,
  type BonusDoc,
  type BonusState,
  type ManualLabelDoc,
} from '../db/models/actions.js';
