import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('gives embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.mongoUri).toBeUndefined();
    expect(config.http).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(config.env.MTURK_TARGET).toBe('local');
    expect(config.env.MARKETPLACE_URL).toBe('http://127.0.0.1:8090');
    expect(config.env.QRELAY_DEVDB_ADDRESS).toBe('127.0.0.1:27017');
    expect(config.devdbDataDir.endsWith('/data/devdb')).toBe(true);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ MONGODB_URI: '', PORT: ' ' }).http.port).toBe(8080);
  });

  it('accepts a target URL and strips its trailing slash', () => {
    expect(loadConfig({ MTURK_TARGET: 'http://127.0.0.1:9000/' }).env.MTURK_TARGET).toBe('http://127.0.0.1:9000');
  });

  it('names every bad variable in one message, and never echoes a secret', () => {
    let message = '';
    try {
      loadConfig({
        MONGODB_URI: 'postgres://x',
        PORT: 'eighty',
        MTURK_TARGET: 'moon',
        MARKETPLACE_SECRET_ACCESS_KEY: ' ',
        LOG_LEVEL: 'loud',
      });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^bad environment: /);
    expect(message).toContain('MONGODB_URI: expected a MongoDB connection string');
    expect(message).toContain('(got "postgres://x")');
    expect(message).toContain('PORT: expected a port number');
    expect(message).toContain('MTURK_TARGET');
    expect(message).toContain('LOG_LEVEL');
  });

  it('rejects an out-of-range port', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT: expected a port from 0 to 65535/);
  });
});
