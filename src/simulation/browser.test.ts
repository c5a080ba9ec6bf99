import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.js';

/** What the server saw of each request: method, path, body. */
const seen: { method: string; path: string; body: string }[] = [];
let server: Server;
let base: string;

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

beforeAll(async () => {
  server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ method: req.method ?? '', path: url.pathname, body });
      const code = Number(url.searchParams.get('code'));
      if (code) return res.writeHead(code, { location: `/landed?from=${code}` }).end();
      if (url.pathname === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (url.pathname === '/silent') return; // never answers
      if (url.pathname === '/gone') return res.writeHead(410).end('gone');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<p>${req.method} ${url.pathname} ${body} é</p>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the simulated workers’ browser', () => {
  it('opens a page (UTF-8) and follows a GET redirect', async () => {
    const browser = new Browser();
    seen.length = 0;
    const page = await browser.request(`${base}/start?code=302`);
    expect(page).toEqual({ status: 200, url: `${base}/landed?from=302`, text: '<p>GET /landed  é</p>' });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /start', 'GET /landed']);
    browser.close();
    // closed, it opens new connections (a simulation started again after a stop)
    expect((await browser.request(`${base}/again`)).text).toBe('<p>GET /again  é</p>');
    browser.close();
  });

  it('posts a form; a 303 (or a 302) answer is followed by a GET without the body, a 307 repeats the POST', async () => {
    const browser = new Browser();
    for (const [code, again] of [
      [303, 'GET'],
      [302, 'GET'],
      [307, 'POST'],
    ] as const) {
      seen.length = 0;
      const page = await browser.request(`${base}/submit?code=${code}`, { method: 'POST', form: 'a=1&b=%C3%A9' });
      expect(page.status).toBe(200);
      expect(seen).toEqual([
        { method: 'POST', path: '/submit', body: 'a=1&b=%C3%A9' },
        { method: again, path: '/landed', body: again === 'POST' ? 'a=1&b=%C3%A9' : '' },
      ]);
    }
    browser.close();
  });

  it('gives an error status as it is, and refuses endless redirects, silent servers and other schemes with the address', async () => {
    const browser = new Browser(300);
    expect((await browser.request(`${base}/gone`)).status).toBe(410);
    await expect(browser.request(`${base}/loop`)).rejects.toThrow(`${base}/loop: more than 10 redirects`);
    await expect(browser.request(`${base}/silent`)).rejects.toThrow(`${base}/silent answered nothing for 0.3 s`);
    await expect(browser.request('ftp://127.0.0.1/x')).rejects.toThrow('cannot open ftp://127.0.0.1/x: only http and https');
    browser.close();
  });
});
