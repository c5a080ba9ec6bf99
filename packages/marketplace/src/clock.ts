/**
 * The marketplace's time. Every time decision (expiry, deadlines, auto-approval, token
 * windows, event timestamps) reads `now()`; a speed factor makes a simulated day pass in
 * seconds, and the time can be moved forward. It never goes backwards, and its state is
 * persisted so a restart continues where it was. Signature checks use the real time.
 *
 * A driver (such as qrelay's worker simulation) may hold the clock: while held,
 * time moves only when the driver advances it, so simulated workers never fall behind a
 * clock that runs faster than they can work. `speed` stays the nominal speed (the
 * driver paces itself by it), and a held clock is saved as a running one, so a restart
 * after a crash never leaves time standing still.
 */

export interface ClockState {
  /** Real time (ms) at which `anchorSimMs` held. */
  anchorRealMs: number;
  anchorSimMs: number;
  /** Simulated milliseconds per real millisecond (1 = real time). */
  speed: number;
  /** Held by a driver: time stands at `anchorSimMs` until advanced. */
  held?: boolean;
}

export const realTimeClock = (realMs: number): ClockState => ({ anchorRealMs: realMs, anchorSimMs: realMs, speed: 1 });

export function simulatedMs(state: ClockState, realMs: number): number {
  if (state.held) return state.anchorSimMs;
  return Math.floor(state.anchorSimMs + Math.max(0, realMs - state.anchorRealMs) * state.speed);
}

const heldFlag = (held: boolean | undefined) => (held ? { held: true } : {});

export function withSpeed(state: ClockState, speed: number, realMs: number): ClockState {
  if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`clock speed must be a positive number, got ${speed}`);
  return { anchorRealMs: realMs, anchorSimMs: simulatedMs(state, realMs), speed, ...heldFlag(state.held) };
}

export function advancedBy(state: ClockState, ms: number, realMs: number): ClockState {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`the clock only moves forward: got ${ms} ms`);
  return { anchorRealMs: realMs, anchorSimMs: simulatedMs(state, realMs) + Math.floor(ms), speed: state.speed, ...heldFlag(state.held) };
}

/** The clock stopped where it is (`held`), or running on from there at its speed. */
export function withHold(state: ClockState, held: boolean, realMs: number): ClockState {
  return { anchorRealMs: realMs, anchorSimMs: simulatedMs(state, realMs), speed: state.speed, ...heldFlag(held) };
}

export class Clock {
  constructor(
    private state: ClockState,
    private readonly realNow: () => number = Date.now,
    private readonly onChange: (state: ClockState) => void = () => {},
  ) {}

  nowMs(): number {
    return simulatedMs(this.state, this.realNow());
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** The nominal speed (also while held). */
  get speed(): number {
    return this.state.speed;
  }

  get held(): boolean {
    return this.state.held === true;
  }

  snapshot(): ClockState {
    return { ...this.state };
  }

  setSpeed(speed: number): void {
    this.state = withSpeed(this.state, speed, this.realNow());
    this.onChange(this.snapshot());
  }

  advance(ms: number): void {
    this.state = advancedBy(this.state, ms, this.realNow());
    this.onChange(this.snapshot());
  }

  /** Moves the time forward to `simMs` (nothing if it is already there or later). */
  advanceTo(simMs: number): void {
    const ahead = simMs - this.nowMs();
    if (ahead > 0) this.advance(ahead);
  }

  /** Stops time for a driver: from now on it moves only with `advance`. */
  hold(): void {
    this.state = withHold(this.state, true, this.realNow());
    this.onChange(this.snapshot());
  }

  /** Lets time run on at the nominal speed from where the driver left it. */
  release(): void {
    this.state = withHold(this.state, false, this.realNow());
    this.onChange(this.snapshot());
  }
}
