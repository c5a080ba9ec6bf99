/**
 * The MTurk-compatible marketplace. It knows nothing of qrelay: it serves the MTurk
 * Requester API (2017-01-17) to any client, and the worker-facing functions to its own
 * worker website and to drivers such as qrelay's simulated crowd (src/simulation/).
 * This module is the package's public entry; fee rules are at `@qrelay/marketplace/fees`
 * and the environment schema at `@qrelay/marketplace/config`.
 */
export { startMarketplace, type RunningMarketplace, type StartMarketplaceOptions } from './server.js';
export { WorkerApi } from './workers.js';
export type * from './workers.js';
export { DomainError, isDomainError } from './domain/errors.js';
/** A HIT's status at a time, after its overdue assignments are settled (for drivers that step the clock themselves). */
export { settle, statusOf } from './domain/hit.js';
export { MarketplaceUserError } from './errors.js';
export type { Logger } from './log.js';
export { adminToken, sameToken } from './admin/token.js';
export type { Marketplace } from './core.js';
export type { Writes } from './store/background-writer.js';
export { NO_CHAOS, type ChaosSettings } from './protocol/chaos.js';
export { SYSTEM_QUALIFICATION_IDS } from './domain/system-qualifications.js';
export { marketplaceConfig, type MarketplaceConfig } from './settings.js';
export { MARKETPLACE_DB_SUFFIX, marketplaceDb } from './store/models.js';

// What a driver of the worker site needs (qrelay's simulated crowd, tests): the site's
// links and keys, the answer formats, and the parsed qualification tests and answer keys.
export { SiteKeys } from './site/keys.js';
export { workFrameUrl } from './site/links.js';
export { formAnswersXml, parseAnswersXml } from './domain/answers-xml.js';
export { parseAnswerKey, type AnswerKey } from './domain/answer-key.js';
export { parseTest } from './domain/question-xml.js';
export { testOf } from './services/qualifications.js';
export { attr, childNodes, elements, hasAttr, isElement, textContent, type HtmlElement, type HtmlNode } from './html-tree.js';

// A requester's records, carried from one marketplace to another (records/): GET and POST /admin/records.
export { exportRequesterRecords } from './records/export.js';
export { importRequesterRecords, type ImportSummary, type RecordCollection } from './records/import.js';
export { parseRecords, RECORDS_FORMAT, type RequesterRecords } from './records/schema.js';
export { mapRecordTimes, recordTimeSpan } from './records/times.js';
export { splitRecords } from './records/parts.js';

// The Prolific side (prolific/): its service (RunningMarketplace.prolific) and a worker's participant id there.
export { ProlificService, participantIdOf } from './prolific/index.js';
