import { describe, expect, it } from 'vitest';
import { isOwnHost, OwnHosts, parseHost } from './own-hosts.js';

describe('own hosts', () => {
  const own = { listen: { name: '127.0.0.1', port: 18500 }, configured: { name: 'mturk.lab.example', port: 443 } };
  it('accepts the listening address, its loopback names and the configured URL', () => {
    for (const host of ['127.0.0.1:18500', 'localhost:18500', 'LOCALHOST:18500', '[::1]:18500', 'mturk.lab.example:443'])
      expect(isOwnHost(host, own), host).toBe(true);
  });
  it('refuses other hosts, other ports and junk', () => {
    for (const host of ['mturk-requester.us-east-1.amazonaws.com', '127.0.0.1:8090', 'mturk.lab.example', 'example.org:18500', 'a b', ''])
      expect(isOwnHost(host, own), host).toBe(false);
    expect(isOwnHost(undefined, own)).toBe(false);
  });
  it('accepts any name on the port when listening on every interface', () => {
    expect(isOwnHost('10.1.2.3:18500', { listen: { name: '0.0.0.0', port: 18500 } })).toBe(true);
    expect(isOwnHost('10.1.2.3:18501', { listen: { name: '0.0.0.0', port: 18500 } })).toBe(false);
  });
  it('parses ports and defaults', () => {
    expect(parseHost('[::1]:80', 443)).toEqual({ name: '[::1]', port: 80 });
    expect(parseHost('Example.org', 443)).toEqual({ name: 'example.org', port: 443 });
    expect(parseHost('x/y', 80)).toBeUndefined();
  });
  it('accepts anything until the server listens', () => {
    const hosts = new OwnHosts();
    expect(hosts.accepts('anything:1')).toBe(true);
    hosts.set({ name: '127.0.0.1', port: 1 });
    expect(hosts.accepts('anything:1')).toBe(false);
  });
});
