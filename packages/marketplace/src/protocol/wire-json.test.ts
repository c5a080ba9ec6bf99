import { describe, expect, it } from 'vitest';
import { questionEncodings, wireJson } from './wire-json.js';

const page = (n: number) =>
  `<HTMLQuestion><HTMLContent><![CDATA[${'<p class="x">a "quoted" text — ünïcode, tab\t, nul \u0000, \\ back</p>\n'.repeat(n)}]]></HTMLContent></HTMLQuestion>`;

describe('wireJson', () => {
  it('is the bytes JSON.stringify gives, Questions kept or not', () => {
    const big = page(200);
    const bodies: unknown[] = [
      {},
      { HIT: { HITId: 'A1', Question: 'short', NumberOfAssignmentsAvailable: 2, Expiration: 1.5 } },
      { HIT: { HITId: 'A1', Question: big, Title: 'T' } },
      {
        NextToken: 'n',
        NumResults: 3,
        HITs: [big, page(100), big].map((q, i) => ({ HITId: `H${i}`, Question: q, RequesterAnnotation: `r${i}` })),
      },
      // a caller's text that looks like the mark's start, in another member and in a short Question
      { HIT: { HITId: 'A2', Question: '\u0000abc:0', RequesterAnnotation: '\u0000' + 'f'.repeat(18) + ':0', Description: big } },
    ];
    const kept = questionEncodings();
    for (const body of bodies) expect(wireJson(body, kept).toString('utf8')).toBe(JSON.stringify(body));
    // and again, from what it kept
    for (const body of bodies) expect(wireJson(body, kept).equals(Buffer.from(JSON.stringify(body), 'utf8'))).toBe(true);
    expect(kept.count).toBe(4);
  });

  it('keeps the encodings deflated: a full poll of a large batch finds every HIT kept', () => {
    const kept = questionEncodings();
    const hits = Array.from({ length: 40 }, (_, i) => ({ HITId: `H${i}`, Question: `${page(300)}<!-- ${i} -->` }));
    const plain = Buffer.from(JSON.stringify({ HITs: hits }), 'utf8');
    // the first answer (CreateHIT's) only notes the HITs; the second packs them
    expect(wireJson({ HITs: hits }, kept).equals(plain)).toBe(true);
    expect(kept.count).toBe(hits.length);
    expect(kept.size).toBeLessThan(100 * hits.length);
    expect(wireJson({ HITs: hits }, kept).equals(plain)).toBe(true);
    expect(kept.count).toBe(hits.length);
    // packed: far less than the encodings themselves, and answered from there alike
    expect(kept.size).toBeGreaterThan(100 * hits.length);
    expect(kept.size).toBeLessThan(plain.length / 4);
    expect(wireJson({ HITs: hits }, kept).equals(plain)).toBe(true);
    // a HIT id seen with another Question is encoded anew
    const other = { HITId: 'H0', Question: page(301) };
    expect(wireJson({ HIT: other }, kept).equals(Buffer.from(JSON.stringify({ HIT: other }), 'utf8'))).toBe(true);
  });

  it('keeps Questions by HIT id, not by their text, and encodes anew a HIT id seen with another Question', () => {
    const kept = questionEncodings();
    const a = page(100);
    wireJson({ HIT: { HITId: 'H1', Question: a } }, kept);
    expect(kept.count).toBe(1);
    // the same Question under another HIT: kept twice, each under its HIT
    wireJson({ HIT: { HITId: 'H2', Question: a } }, kept);
    expect(kept.count).toBe(2);
    // a Question with no HIT id beside it is encoded as it is, and not kept
    expect(wireJson({ Question: a }, kept).toString('utf8')).toBe(JSON.stringify({ Question: a }));
    expect(kept.count).toBe(2);
    const b = page(101);
    expect(wireJson({ HIT: { HITId: 'H1', Question: b } }, kept).toString('utf8')).toBe(
      JSON.stringify({ HIT: { HITId: 'H1', Question: b } }),
    );
  });
});
