import { describe, expect, it } from 'vitest';
import { loadMarketplaceEnv } from './config.js';
import { MarketplaceUserError } from './errors.js';
import { NO_CHAOS } from './protocol/chaos.js';
import { marketplaceConfig } from './settings.js';

const env = (vars: Record<string, string>) => ({ env: loadMarketplaceEnv(vars) });

describe('marketplace settings from the environment', () => {
  it('has development defaults', () => {
    const c = marketplaceConfig(env({}));
    expect(c.settings).toMatchObject({ accessKeyId: 'AKQRELAYLOCALDEV0001', initialBalanceCents: 1_000_000 });
    expect(c.listen).toEqual({ host: '127.0.0.1', port: 8090 });
    expect(c.chaos).toEqual(NO_CHAOS);
    expect(c.clockSpeed).toBeUndefined();
  });

  it('reads balance, clock speed, chaos and the listening address', () => {
    const c = marketplaceConfig(
      env({
        MARKETPLACE_URL: 'http://0.0.0.0:9000',
        MARKETPLACE_INITIAL_BALANCE: '250.5',
        MARKETPLACE_CLOCK_SPEED: '3600',
        MARKETPLACE_CHAOS: 'fault-share=0.1,throttle-rate=5',
      }),
    );
    expect(c.settings.initialBalanceCents).toBe(25_050);
    expect(c.clockSpeed).toBe(3600);
    expect(c.chaos).toMatchObject({ faultShare: 0.1, throttleRate: 5, throttleBurst: 5 });
    expect(c.listen).toEqual({ host: '0.0.0.0', port: 9000 });
  });

  it('names the bad variable', () => {
    expect(() => env({ MARKETPLACE_CHAOS: 'fault-share=7' })).toThrow(MarketplaceUserError);
    expect(() => env({ MARKETPLACE_CHAOS: 'fault-share=7' })).toThrow(/MARKETPLACE_CHAOS: fault-share is a share from 0 to 1/);
    expect(() => env({ MARKETPLACE_INITIAL_BALANCE: '10.001' })).toThrow(/MARKETPLACE_INITIAL_BALANCE: expected a USD amount/);
    expect(() => env({ MARKETPLACE_CLOCK_SPEED: '0' })).toThrow(/MARKETPLACE_CLOCK_SPEED: expected a speed above 0/);
  });
});
