import http from 'node:http';
import https from 'node:https';

/**
 * POSTs a JSON body to a notification destination over kept-alive connections and answers
 * the status. node:http rather than `fetch`: a busy batch sends thousands of messages, and
 * undici's cost per request is about twice this one's. The agents' timeout makes Node close
 * an idle connection a second before the server's Keep-Alive hint says the server does, so
 * that no message goes out on a connection being closed (ECONNRESET, a needless retry).
 */

const AGENT_IDLE_MS = 30_000;
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: AGENT_IDLE_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: AGENT_IDLE_MS }),
};

/** Resolves with the answer's status (its body is read and dropped); rejects on a network error or after `timeoutMs` in all. */
export function postJson(destination: string, body: string, timeoutMs: number, userAgent: string): Promise<number> {
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    return Promise.reject(new Error(`not a URL: ${destination}`));
  }
  const protocol = url.protocol === 'https:' ? 'https:' : url.protocol === 'http:' ? 'http:' : undefined;
  if (!protocol) return Promise.reject(new Error(`only http and https destinations are delivered to, not ${url.protocol}`));
  const send = protocol === 'https:' ? https.request : http.request;
  const payload = Buffer.from(body, 'utf8');
  return new Promise<number>((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        agent: agents[protocol],
        headers: { 'content-type': 'application/json', 'content-length': String(payload.length), 'user-agent': userAgent },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          clearTimeout(deadline);
          resolve(res.statusCode ?? 0);
        });
        res.on('error', (err) => {
          clearTimeout(deadline);
          reject(err);
        });
      },
    );
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (err) => {
      clearTimeout(deadline);
      reject(err);
    });
    req.end(payload);
  });
}
