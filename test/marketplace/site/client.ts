/**
 * A cookie-keeping HTTP client for the worker site (no browser): what a person's browser
 * sends, minus the rendering. Redirects are not followed, so tests see them.
 */
export class SiteClient {
  private cookies = new Map<string, string>();
  lastSetCookie: string[] = [];

  constructor(readonly base: string) {}

  private remember(res: Response): void {
    this.lastSetCookie = res.headers.getSetCookie();
    for (const c of this.lastSetCookie) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  }

  private get cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  async get(path: string): Promise<{ status: number; html: string; location: string | null; headers: Headers }> {
    const res = await fetch(path.startsWith('http') ? path : `${this.base}${path}`, { redirect: 'manual', headers: this.cookieHeader });
    this.remember(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
  }

  async post(
    path: string,
    fields: Record<string, string> | [string, string][],
  ): Promise<{ status: number; html: string; location: string | null; headers: Headers }> {
    const res = await fetch(path.startsWith('http') ? path : `${this.base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...this.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    this.remember(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), headers: res.headers };
  }

  /** The CSRF token of the site's forms on a page. */
  static csrf(html: string): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    if (!m) throw new Error(`no CSRF token on the page: ${html.slice(0, 300)}`);
    return m[1]!;
  }

  async login(name: string, password: string): Promise<void> {
    const page = await this.get('/worker/login');
    const res = await this.post('/worker/login', { _csrf: SiteClient.csrf(page.html), name, password, next: '/worker/hits' });
    if (res.status !== 303) throw new Error(`login failed: ${res.status} ${res.html.slice(0, 200)}`);
  }

  /** The iframe's address on a site page (HTML-unescaped). */
  static frameSrc(html: string): string {
    const m = /<iframe id="hit-frame"[^>]* src="([^"]+)"/.exec(html);
    if (!m) throw new Error('no HIT frame on the page');
    return m[1]!.replaceAll('&amp;', '&').replaceAll('&#x3D;', '=');
  }
}
