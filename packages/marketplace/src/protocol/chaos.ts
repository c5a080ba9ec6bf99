/**
 * Throttling and fault injection, for testing clients against a misbehaving service:
 * a token bucket (rate, burst) answers ThrottlingException when empty, and independent
 * shares of requests are throttled at random, fail with a ServiceFault, or are delayed.
 * All off by default; set at start and changed at runtime through the admin interface.
 */

export interface ChaosSettings {
  /** Requests per second the token bucket refills; 0 turns the bucket off. */
  throttleRate: number;
  /** Bucket capacity (a burst of this many requests passes at once). */
  throttleBurst: number;
  /** Share of requests (0..1) answered ThrottlingException at random. */
  throttleShare: number;
  /** Share of requests (0..1) answered with a ServiceFault (500), changing nothing. */
  faultShare: number;
  /** Share of requests (0..1) answered only after `slowMs`. */
  slowShare: number;
  slowMs: number;
}

export const NO_CHAOS: ChaosSettings = {
  throttleRate: 0,
  throttleBurst: 0,
  throttleShare: 0,
  faultShare: 0,
  slowShare: 0,
  slowMs: 0,
};

export interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** Takes one token if there is one, refilling at `rate` per second up to `burst`. */
export function takeToken(bucket: Bucket, nowMs: number, rate: number, burst: number): { ok: boolean; bucket: Bucket } {
  const capacity = Math.max(1, burst);
  const elapsed = Math.max(0, nowMs - bucket.updatedMs) / 1000;
  const tokens = Math.min(capacity, bucket.tokens + elapsed * rate);
  if (tokens >= 1) return { ok: true, bucket: { tokens: tokens - 1, updatedMs: nowMs } };
  return { ok: false, bucket: { tokens, updatedMs: nowMs } };
}

export type ChaosDecision = { kind: 'throttle' } | { kind: 'fault' } | { kind: 'slow'; ms: number } | { kind: 'pass' };

/** One random draw per share, so the shares are independent of each other. */
export function decide(settings: ChaosSettings, random: () => number): ChaosDecision {
  if (settings.throttleShare > 0 && random() < settings.throttleShare) return { kind: 'throttle' };
  if (settings.faultShare > 0 && random() < settings.faultShare) return { kind: 'fault' };
  if (settings.slowShare > 0 && settings.slowMs > 0 && random() < settings.slowShare) return { kind: 'slow', ms: settings.slowMs };
  return { kind: 'pass' };
}

/**
 * Parses `throttle-rate=5,throttle-burst=10,throttle-share=0.2,fault-share=0.05,
 * slow-share=0.1,slow-ms=2000` (the MARKETPLACE_CHAOS format); unnamed settings stay off.
 */
export function parseChaosSpec(spec: string): ChaosSettings {
  const settings: ChaosSettings = { ...NO_CHAOS };
  const keys: Record<string, keyof ChaosSettings> = {
    'throttle-rate': 'throttleRate',
    'throttle-burst': 'throttleBurst',
    'throttle-share': 'throttleShare',
    'fault-share': 'faultShare',
    'slow-share': 'slowShare',
    'slow-ms': 'slowMs',
  };
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, raw] = part.split('=').map((s) => s.trim()) as [string, string | undefined];
    const key = keys[name];
    if (!key) throw new Error(`unknown setting "${name}" (known: ${Object.keys(keys).join(', ')})`);
    const value = Number(raw);
    if (raw === undefined || raw === '' || !Number.isFinite(value) || value < 0)
      throw new Error(`${name} needs a number >= 0, got "${raw ?? ''}"`);
    if (key.endsWith('Share') && value > 1) throw new Error(`${name} is a share from 0 to 1, got ${value}`);
    settings[key] = value;
  }
  return checkChaos(settings);
}

export function checkChaos(settings: ChaosSettings): ChaosSettings {
  if (settings.throttleRate > 0 && settings.throttleBurst < 1)
    return { ...settings, throttleBurst: Math.max(1, Math.ceil(settings.throttleRate)) };
  return settings;
}
