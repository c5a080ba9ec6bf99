import { isListening } from '../db/devdb.js';

/**
 * Whether anything accepts a connection at an endpoint's host and port, within
 * `timeoutMs`: a quick answer to "is the crowd platform there at all?" before calls that
 * would otherwise retry a dead address for a minute.
 */
export function endpointAnswers(endpoint: string, timeoutMs = 2000): Promise<boolean> {
  const url = new URL(endpoint);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return isListening(url.hostname.replace(/^\[|\]$/g, ''), port, timeoutMs);
}
