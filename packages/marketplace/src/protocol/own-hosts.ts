/**
 * Which `Host` a signed request may name. SigV4 covers the Host header, but a signature
 * only binds a request to the host it was *signed for*: a request captured on its way to
 * another server that holds the same key pair (another marketplace, MTurk itself) verifies
 * here too unless this server checks that the signed host is one of its own addresses.
 * Its own: the host of MARKETPLACE_URL and the address it listens on, and, on the port it
 * listens on, the loopback names (localhost, 127.0.0.1, [::1]); when it listens on every
 * interface (0.0.0.0 or ::), any name on that port (it cannot know the names it is reached by).
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const WILDCARD = new Set(['0.0.0.0', '[::]']);

export interface HostAddress {
  /** Lower case; IPv6 in brackets. */
  name: string;
  port: number;
}

export function parseHost(value: string, defaultPort: number): HostAddress | undefined {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!m) return undefined;
  return { name: m[1]!.toLowerCase(), port: m[2] !== undefined ? Number(m[2]) : defaultPort };
}

export const bracketed = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host).toLowerCase();

export function isOwnHost(hostHeader: string | undefined, own: { listen: HostAddress; configured?: HostAddress }): boolean {
  if (hostHeader === undefined) return false;
  const host = parseHost(hostHeader, 80);
  if (!host) return false;
  if (own.configured && host.name === own.configured.name && host.port === own.configured.port) return true;
  if (host.port !== own.listen.port) return false;
  return host.name === own.listen.name || LOOPBACK.has(host.name) || WILDCARD.has(own.listen.name);
}

/** Filled in once the server listens (the port may be picked by the system). */
export class OwnHosts {
  private own: { listen: HostAddress; configured?: HostAddress } | undefined;

  set(listen: HostAddress, configured?: HostAddress): void {
    this.own = { listen, ...(configured ? { configured } : {}) };
  }

  accepts(hostHeader: string | undefined): boolean {
    return this.own === undefined || isOwnHost(hostHeader, this.own);
  }
}
