import http from 'node:http';
import https from 'node:https';
import { keepAliveAgents } from '../keep-alive-agents.js';

/**
 * The simulated workers' browser: HTTP/1.1 requests over kept-alive connections, following
 * redirects as a browser does (a 303, or a 301 or 302 after a POST, becomes a GET without a
 * body; a 307 or 308 repeats the request). node:http rather than `fetch`: the crowd opens a
 * frame (two requests with its redirect) and posts a form for every assignment, and undici's
 * cost per request was about twice this one's (docs/decisions/0004).
 */

export interface BrowserResponse {
  status: number;
  /** The address that answered (after redirects). */
  url: string;
  text: string;
}

export interface BrowserRequest {
  method?: 'GET' | 'POST';
  /** An `application/x-www-form-urlencoded` body (POST). */
  form?: string;
}

const MAX_REDIRECTS = 10;

export class Browser {
  // agents that close an idle connection before the server does (see keep-alive-agents.ts)
  private readonly agents: ReturnType<typeof keepAliveAgents>;

  /** `timeoutMs`: a connection silent this long fails the request. */
  constructor(private readonly timeoutMs = 30_000) {
    this.agents = keepAliveAgents(timeoutMs);
  }

  request(url: string, init: BrowserRequest = {}): Promise<BrowserResponse> {
    return this.follow(new URL(url), init.method ?? 'GET', init.form, 0);
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  private follow(url: URL, method: 'GET' | 'POST', form: string | undefined, hops: number): Promise<BrowserResponse> {
    const protocol = url.protocol === 'https:' ? 'https:' : url.protocol === 'http:' ? 'http:' : undefined;
    if (!protocol) return Promise.reject(new Error(`the simulated browser cannot open ${url.href}: only http and https`));
    const send = protocol === 'https:' ? https.request : http.request;
    const body = method === 'POST' ? Buffer.from(form ?? '', 'utf8') : undefined;
    return new Promise<BrowserResponse>((resolve, reject) => {
      const req = send(
        url,
        {
          method,
          agent: this.agents[protocol],
          timeout: this.timeoutMs,
          headers: body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) } : {},
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const location = res.headers.location;
          if (status >= 300 && status < 400 && location) {
            res.resume();
            if (hops >= MAX_REDIRECTS) {
              reject(new Error(`${url.href}: more than ${MAX_REDIRECTS} redirects`));
              return;
            }
            const keep = status === 307 || status === 308;
            const next = keep ? method : status === 303 || method === 'POST' ? 'GET' : method;
            resolve(this.follow(new URL(location, url), next, next === method ? form : undefined, hops + 1));
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status, url: url.href, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${url.href} answered nothing for ${this.timeoutMs / 1000} s`)));
      req.on('error', reject);
      req.end(body);
    });
  }
}
