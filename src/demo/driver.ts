import type { Config } from '../config.js';
import { UserError, errorMessage } from '../errors.js';
import { adminToken } from '@qrelay/marketplace';
import type { OracleEntry, PopulationProfile, SimulatedMarketplace, SimulationProgress } from '../simulation/index.js';

/**
 * The simulated workers and the marketplace clock, driven the same way whether the
 * marketplace runs in this process (`running.simulation`, `running.marketplace.clock`) or
 * in another one (its /admin routes, packages/marketplace/README.md).
 *
 * `now()` is the marketplace's time: the demo's pipeline reads it, so that publishing,
 * votes and latencies are measured on the clock the simulated workers live by. For a
 * marketplace in another process it is extrapolated from the last `sync()`.
 */
export interface SimulationDriver {
  readonly where: 'in-process' | 'remote';
  now(): Date;
  sync(): Promise<void>;
  speed(): Promise<number>;
  setSpeed(speed: number): Promise<void>;
  /** Loads the population (stopping a run in progress first); answers the number of workers. */
  loadPopulation(profile: PopulationProfile): Promise<number>;
  /** Adds to the oracle; answers its size. */
  addToOracle(entries: Record<string, OracleEntry>): Promise<number>;
  start(): Promise<void>;
  pause(): Promise<void>;
  stop(): Promise<void>;
  progress(): Promise<SimulationProgress>;
}

export function inProcessDriver(running: SimulatedMarketplace): SimulationDriver {
  const sim = running.simulation;
  const clock = running.marketplace.clock;
  return {
    where: 'in-process',
    now: () => clock.now(),
    sync: async () => {},
    speed: async () => clock.speed,
    setSpeed: async (speed) => clock.setSpeed(speed),
    async loadPopulation(profile) {
      await sim.stop();
      return (await sim.loadPopulation(profile)).length;
    },
    addToOracle: async (entries) => sim.setOracle(entries, true),
    start: async () => sim.start(),
    pause: () => sim.pause(),
    stop: () => sim.stop(),
    progress: async () => sim.progress(),
  };
}

export function remoteDriver(url: string, config: Config): SimulationDriver {
  const base = url.replace(/\/+$/, '');
  const token = adminToken(config.env.MARKETPLACE_ACCESS_KEY_ID, config.env.MARKETPLACE_SECRET_ACCESS_KEY);
  let known = { simMs: Date.now(), realMs: Date.now(), speed: 1, held: false };

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${base}/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (err) {
      throw new UserError(`the marketplace at ${base} does not answer (${errorMessage(err)}); is it still running?`);
    }
    const text = await res.text();
    if (res.status === 403 || res.status === 401) {
      throw new UserError(
        `the marketplace at ${base} refused the admin token: MARKETPLACE_ACCESS_KEY_ID / MARKETPLACE_SECRET_ACCESS_KEY must be the key pair it runs with`,
      );
    }
    if (!res.ok) throw new UserError(`the marketplace at ${base} answered ${res.status} to ${method} /admin${path}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  const remember = (p: SimulationProgress) => {
    known = { simMs: Date.parse(p.clock.now), realMs: Date.now(), speed: p.clock.speed, held: p.clock.held };
  };
  const progress = async () => {
    const p = await call<SimulationProgress>('GET', '/simulation');
    remember(p);
    return p;
  };
  const stopIfRunning = async () => {
    const p = await progress();
    if (p.state === 'running' || p.state === 'paused') remember(await call<SimulationProgress>('POST', '/simulation/stop'));
  };
  return {
    where: 'remote',
    now: () => new Date(known.simMs + (known.held ? 0 : (Date.now() - known.realMs) * known.speed)),
    sync: async () => void (await progress()),
    speed: async () => (await progress()).clock.speed,
    async setSpeed(speed) {
      await call('PUT', '/clock', { speed });
      await progress();
    },
    async loadPopulation(profile) {
      await stopIfRunning();
      return (await call<{ workers: unknown[] }>('PUT', '/simulation/population', profile)).workers.length;
    },
    addToOracle: async (entries) => (await call<{ size: number }>('PATCH', '/simulation/oracle', entries)).size,
    start: async () => remember(await call<SimulationProgress>('POST', '/simulation/start')),
    pause: async () => remember(await call<SimulationProgress>('POST', '/simulation/pause')),
    stop: async () => remember(await call<SimulationProgress>('POST', '/simulation/stop')),
    progress,
  };
}
