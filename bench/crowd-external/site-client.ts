/**
 * A person's browser on the marketplace's worker site, minus the rendering: its own cookie
 * jar, redirects not followed (the bot follows the ones it means to), and the few things
 * a person reads off the pages (forms' addresses, the CSRF token, the HIT frame's address).
 */
import { attr, elements, textContent } from '@qrelay/marketplace';
import { parse } from 'parse5';

export interface Page {
  status: number;
  html: string;
  location: string | null;
  url: string;
}

export class SiteClient {
  private readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  private url(path: string): string {
    return path.startsWith('http') ? path : `${this.base}${path}`;
  }

  private remember(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return { ...(cookie && { cookie }), ...extra };
  }

  async get(path: string): Promise<Page> {
    const url = this.url(path);
    const res = await fetch(url, { redirect: 'manual', headers: this.headers(), signal: AbortSignal.timeout(60_000) });
    this.remember(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), url };
  }

  async post(path: string, fields: [string, string][]): Promise<Page> {
    const url = this.url(path);
    const res = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: this.headers({ 'content-type': 'application/x-www-form-urlencoded' }),
      body: new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(60_000),
    });
    this.remember(res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location'), url };
  }
}

export interface SiteForm {
  action: string;
  fields: [string, string][];
  text: string;
}

/** The forms of a site page: their action, their hidden fields (the CSRF token among them) and their text. */
export function siteForms(html: string): SiteForm[] {
  return [...elements(parse(html))]
    .filter((e) => e.tagName === 'form')
    .map((f) => ({
      action: attr(f, 'action') ?? '',
      fields: [...elements(f)]
        .filter((e) => e.tagName === 'input' && attr(e, 'type') === 'hidden' && attr(e, 'name') !== undefined)
        .map((e): [string, string] => [attr(e, 'name')!, attr(e, 'value') ?? '']),
      text: textContent(f),
    }));
}

/** The HIT frame's address on a preview or work page. */
export function frameSource(html: string): string | undefined {
  const frame = [...elements(parse(html))].find((e) => e.tagName === 'iframe' && attr(e, 'id') === 'hit-frame');
  return frame ? attr(frame, 'src') : undefined;
}

/** A page's visible text, whitespace folded (what the bots look for in a message). */
export function pageText(html: string): string {
  return textContent(parse(html)).replace(/\s+/g, ' ').trim();
}
