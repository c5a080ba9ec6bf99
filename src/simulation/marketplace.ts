import { startMarketplace, type RunningMarketplace, type StartMarketplaceOptions } from '@qrelay/marketplace';
import { simulationRouter } from './routes.js';
import { Simulation } from './simulation.js';

/**
 * A marketplace with qrelay's simulated crowd attached: the marketplace package knows
 * nothing of the simulation; qrelay mounts its operator routes (/admin/simulation,
 * behind the marketplace's admin token) through the package's `mount` hook and stops the
 * simulated workers before the marketplace closes.
 */
export interface SimulatedMarketplace extends RunningMarketplace {
  /** Simulated workers, driven through /admin/simulation or directly. */
  simulation: Simulation;
}

export async function startMarketplaceWithSimulation(opts: StartMarketplaceOptions): Promise<SimulatedMarketplace> {
  // set once startMarketplace resolves; the routes read it per request
  const state: { simulated?: SimulatedMarketplace } = {};
  const running = await startMarketplace({
    ...opts,
    mount: (app, inner) => {
      app.use('/admin/simulation', (req, res, next) => {
        if (!state.simulated)
          return void res
            .status(503)
            .type('application/problem+json')
            .send(
              JSON.stringify({
                type: 'about:blank',
                title: 'Service Unavailable',
                status: 503,
                detail: 'the marketplace is starting; try again',
              }),
            );
        router(req, res, next);
      });
      const router = simulationRouter({
        get simulation() {
          return state.simulated!.simulation;
        },
        get adminToken() {
          return inner.adminToken;
        },
        get marketplace() {
          return inner.marketplace;
        },
      });
      opts.mount?.(app, inner);
    },
  });
  const closeMarketplace = running.close.bind(running);
  const simulation = new Simulation(running);
  let closing: Promise<void> | undefined;
  state.simulated = Object.assign(running, {
    simulation,
    close() {
      closing ??= simulation.stop().then(closeMarketplace);
      return closing;
    },
  });
  return state.simulated;
}
