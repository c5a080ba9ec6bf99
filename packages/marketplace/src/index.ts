/**
 * The MTurk-compatible marketplace. It knows nothing of qrelay: it serves the MTurk
 * Requester API (2017-01-17) to any client, and the worker-facing functions to its own
 * worker website and simulated workers.
 */
export { startMarketplace, type RunningMarketplace, type StartMarketplaceOptions } from './server.js';
export { WorkerApi } from './workers.js';
export type * from './workers.js';
export { DomainError, isDomainError } from './domain/errors.js';
export { adminToken } from './admin/token.js';
export type { Marketplace } from './core.js';
export type { ChaosSettings } from './protocol/chaos.js';
export { SYSTEM_QUALIFICATION_IDS } from './domain/system-qualifications.js';
export { checkPopulation, type OracleEntry, type PopulationInput, type PopulationProfile, type Simulation, type SimulationProgress } from './sim/index.js';
