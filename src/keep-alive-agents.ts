import http from 'node:http';
import https from 'node:https';

/**
 * Kept-alive HTTP connections that never race the server's close.
 *
 * A Node server announces `Keep-Alive: timeout=5` and closes a connection left idle that
 * long (Node 20 waits a second more). A request that leaves on the connection just as the
 * server closes it is lost: "socket hang up" (ECONNRESET), which the AWS SDK reports as a
 * TimeoutError. When server and client share a busy event loop (the bundled marketplace,
 * the tests) it takes only one long task across that moment. Node's agent avoids it by
 * closing its idle connection a second before the announced timeout, but only when the
 * agent has a `timeout` of its own; without one it ignores the announcement, and the
 * SDK's default agent has none. qrelay's node:http and AWS SDK clients take their agents
 * from here (`fetch`, as the openai SDK uses it, honours the announcement on its own; the
 * marketplace package, which imports nothing of qrelay, has the same in post-json.ts).
 *
 * The timeout is also how long an idle connection is kept when the server announces
 * nothing. It never fails a request in flight: the agent acts on it only for idle
 * connections.
 */

export const KEEP_ALIVE_IDLE_MS = 30_000;

export function keepAliveAgentOptions(idleMs = KEEP_ALIVE_IDLE_MS): http.AgentOptions {
  return { keepAlive: true, timeout: idleMs };
}

/** One agent per scheme, for node:http and node:https requests. */
export function keepAliveAgents(idleMs = KEEP_ALIVE_IDLE_MS): { 'http:': http.Agent; 'https:': https.Agent } {
  return { 'http:': new http.Agent(keepAliveAgentOptions(idleMs)), 'https:': new https.Agent(keepAliveAgentOptions(idleMs)) };
}

/**
 * The AWS SDK's request handler options with such agents (the SDK makes, owns and closes
 * them with the client): pass as `requestHandler`, with any other handler options.
 */
export function keepAliveSdkHandler<T extends object>(
  options: T = {} as T,
): T & { httpAgent: http.AgentOptions; httpsAgent: https.AgentOptions } {
  return { ...options, httpAgent: keepAliveAgentOptions(), httpsAgent: keepAliveAgentOptions() };
}
