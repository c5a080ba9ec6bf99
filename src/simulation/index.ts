/** Simulated workers: a population profile, an oracle, and a run on the marketplace clock. */
export { Simulation, SimulationError, type SimulationProgress, type SimulationState, type KindTally } from './simulation.js';
export {
  checkPopulation,
  populationSchema,
  WORKER_KINDS,
  type PopulationProfile,
  type PopulationInput,
  type WorkerKind,
} from './population.js';
export { simulationRouter, oracleSchema, workerView } from './routes.js';
export { startMarketplaceWithSimulation, type SimulatedMarketplace } from './marketplace.js';
export type { OracleEntry, Judgment } from './decide.js';
export type { SimWorker } from './draw.js';
export { simulateBatch, type SimulateEnv, type SimulateRequest, type SimulationRun } from './run.js';
export { buildForecast, renderForecasts, type Forecast, type ForecastVote } from './forecast.js';
export { readTruth } from './truth.js';
