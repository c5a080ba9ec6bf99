import { checkChaos, decide, NO_CHAOS, takeToken, type Bucket, type ChaosDecision, type ChaosSettings } from './chaos.js';

/** The running marketplace's throttling and fault injection; changed at runtime by the admin interface. */
export class ChaosControl {
  private settings: ChaosSettings;
  private bucket: Bucket;

  constructor(
    initial: ChaosSettings = NO_CHAOS,
    private readonly random: () => number = Math.random,
    private readonly realNow: () => number = Date.now,
  ) {
    this.settings = checkChaos(initial);
    this.bucket = { tokens: this.settings.throttleBurst, updatedMs: realNow() };
  }

  get current(): ChaosSettings {
    return { ...this.settings };
  }

  set(next: Partial<ChaosSettings>): ChaosSettings {
    this.settings = checkChaos({ ...this.settings, ...next });
    this.bucket = { tokens: this.settings.throttleBurst, updatedMs: this.realNow() };
    return this.current;
  }

  decide(): ChaosDecision {
    if (this.settings.throttleRate > 0) {
      const taken = takeToken(this.bucket, this.realNow(), this.settings.throttleRate, this.settings.throttleBurst);
      this.bucket = taken.bucket;
      if (!taken.ok) return { kind: 'throttle' };
    }
    return decide(this.settings, this.random);
  }
}
