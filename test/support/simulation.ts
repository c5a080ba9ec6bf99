import type { SimulatedMarketplace } from '../../src/simulation/index.js';

/**
 * Lets a loaded simulated population work in spells until `round` (a collection round)
 * says the work is done. Between spells the simulation is paused (the marketplace clock
 * stands still) while the round reviews what came in and asks for more, so rounds neither
 * compete with the workers for the CPU nor let simulated hours pass idle.
 *
 * Every bound is in simulated time, which the simulation moves event by event (slower
 * when the machine is busy, never skipping work): a busy machine makes the run take
 * longer, never end early. The wait for a spell's end polls the simulation's progress, a
 * condition, not a wall-clock deadline; the test's own timeout is the only safety net.
 */
export async function workInSpells(
  running: SimulatedMarketplace,
  round: () => Promise<boolean>,
  opts: { spellSeconds?: number; maxSimulatedSeconds?: number } = {},
): Promise<{ complete: boolean; rounds: number; simulatedSeconds: number }> {
  const spell = opts.spellSeconds ?? 20 * 60;
  const max = opts.maxSimulatedSeconds ?? 7 * 86_400;
  const sim = running.simulation;
  let rounds = 0;
  let complete = false;
  let simulated = 0;
  try {
    while (!complete && simulated < max) {
      sim.start();
      const target = simulated + spell;
      for (;;) {
        const p = sim.progress();
        simulated = p.simulatedSeconds;
        if (simulated >= target || p.state !== 'running') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await sim.pause();
      complete = await round();
      rounds++;
    }
  } finally {
    await sim.stop();
  }
  return { complete, rounds, simulatedSeconds: simulated };
}

/**
 * Like `workInSpells`, as a discrete-event run (`qrelay simulate`'s mode): the marketplace
 * clock is held and moves only with the simulation's events, and a collection round runs
 * every `spellSeconds` of simulated time or as soon as all open work is done, while time
 * stands still. Nothing depends on the machine's speed: a seed replays the same run.
 */
export async function workInSteps(
  running: SimulatedMarketplace,
  round: () => Promise<boolean>,
  opts: { spellSeconds?: number; maxSimulatedSeconds?: number } = {},
): Promise<{ complete: boolean; rounds: number; simulatedSeconds: number }> {
  const spellMs = (opts.spellSeconds ?? 20 * 60) * 1000;
  const sim = running.simulation;
  const clock = running.marketplace.clock;
  sim.startStepped();
  const startMs = clock.nowMs();
  const limitMs = startMs + (opts.maxSimulatedSeconds ?? 7 * 86_400) * 1000;
  let rounds = 0;
  let complete = false;
  try {
    while (!complete && clock.nowMs() < limitMs) {
      const t = await sim.runUntil(clock.nowMs() + spellMs, { untilQuiet: true });
      await running.loops.tick();
      complete = await round();
      rounds++;
      // the round's requests happened at time t; the crowd resumes a minute later
      await sim.runUntil(t + 60_000);
    }
  } finally {
    await sim.stop();
  }
  return { complete, rounds, simulatedSeconds: (clock.nowMs() - startMs) / 1000 };
}

/**
 * A small hostile population for pipeline tests: a quarter spammers, always-yes and always-no
 * workers among careful people, 30 arrivals an hour, 8 HITs a visit.
 */
export const hostilePopulation = (seed: string) => ({
  seed,
  size: 30,
  arrivalsPerHour: 30,
  hitsPerVisit: 8,
  shares: { spammer: 0.1, alwaysYes: 0.07, alwaysNo: 0.07 },
  accuracy: { relevant: { alpha: 48, beta: 2 }, notRelevant: { alpha: 46, beta: 4 } },
  workTime: { medianSeconds: 45 },
});
