import { Clock, realTimeClock, withSpeed, type ClockState } from '../clock.js';
import type { MarketplaceModels } from './models.js';

/**
 * The clock survives restarts: its simulated time is saved whenever it changes and
 * periodically. While the marketplace is stopped, time passes at real speed (so a
 * real-time clock stays the real time, and a sped-up one does not leap ahead).
 */

interface SavedClock {
  simMs: number;
  realMs: number;
  speed: number;
}

const CLOCK_ID = 'clock';
const SAVE_INTERVAL_MS = 250;

export async function loadClock(models: MarketplaceModels, speed: number | undefined, realNow: () => number = Date.now): Promise<Clock> {
  const saved = (await models.settings.findById(CLOCK_ID).lean())?.value as SavedClock | undefined;
  const now = realNow();
  let state: ClockState = saved
    ? { anchorRealMs: now, anchorSimMs: Math.max(saved.simMs, saved.simMs + (now - saved.realMs)), speed: saved.speed }
    : realTimeClock(now);
  if (speed !== undefined && speed !== state.speed) state = withSpeed(state, speed, now);
  // a driven clock changes at every simulated event: saves are coalesced, at most one
  // in flight and one every SAVE_INTERVAL_MS, the latest state last (close() saves at once)
  let timer: NodeJS.Timeout | undefined;
  let inFlight = false;
  let pending = false;
  let lastStart = 0;
  const run = (): void => {
    timer = undefined;
    inFlight = true;
    pending = false;
    lastStart = Date.now();
    saveClock(models, clock, realNow)
      .catch(() => undefined) // the background loop saves again within seconds
      .finally(() => {
        inFlight = false;
        if (pending) save();
      });
  };
  const save = (): void => {
    pending = true;
    if (timer || inFlight) return;
    timer = setTimeout(run, Math.max(0, lastStart + SAVE_INTERVAL_MS - Date.now()));
    timer.unref();
  };
  const clock = new Clock(state, realNow, save);
  await saveClock(models, clock, realNow);
  return clock;
}

export async function saveClock(models: MarketplaceModels, clock: Clock, realNow: () => number = Date.now): Promise<void> {
  const value: SavedClock = { simMs: clock.nowMs(), realMs: realNow(), speed: clock.speed };
  await models.settings.updateOne({ _id: CLOCK_ID }, { $set: { value } }, { upsert: true });
}

/** The clock's time when it was last saved (a closed marketplace's last time), without loading or saving it. */
export async function savedClockMs(models: MarketplaceModels): Promise<number | undefined> {
  return ((await models.settings.findById(CLOCK_ID).lean())?.value as SavedClock | undefined)?.simMs;
}
