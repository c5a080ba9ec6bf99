import { describe, expect, it } from 'vitest';
import { escapeHtml, findQuoteSpans, highlightChunk, normaliseQuote } from './highlight.js';

describe('normaliseQuote', () => {
  it.each([
    ['  plain text ', 'plain text'],
    ['"quoted"', 'quoted'],
    ['\u201ccurly\u201d', 'curly'],
    ["'single'", 'single'],
    ['"...trailing words..."', 'trailing words'],
    ['\u2026 ellipsis \u2026', 'ellipsis'],
    ['"a" and "b"', 'a" and "b'],
  ])('%j -> %j', (input, output) => {
    expect(normaliseQuote(input)).toBe(output);
  });
});

describe('findQuoteSpans', () => {
  const chunk = 'The tower was finished in 1889.\nIt is   324 metres tall. The tower was finished in 1889.';

  it('finds every exact occurrence', () => {
    expect(findQuoteSpans(chunk, 'The tower was finished in 1889.')).toEqual([
      [0, 31],
      [57, 88],
    ]);
  });

  it('tolerates different whitespace (spaces, newlines, tabs) between words', () => {
    const spans = findQuoteSpans(chunk, '1889. It is 324\tmetres');
    expect(spans).toHaveLength(1);
    const [start, end] = spans[0] as [number, number];
    expect(chunk.slice(start, end)).toBe('1889.\nIt is   324 metres');
  });

  it('strips the quote marks agents wrap quotations in', () => {
    expect(findQuoteSpans(chunk, '"324 metres tall"')).toHaveLength(1);
  });

  it('is exact otherwise: case, punctuation and missing text do not match', () => {
    expect(findQuoteSpans(chunk, 'the tower was finished')).toEqual([]);
    expect(findQuoteSpans(chunk, '324 metres high')).toEqual([]);
  });

  it('treats regular-expression characters literally', () => {
    expect(findQuoteSpans('cost (in $) is 5*3 [approx.]', '(in $) is 5*3 [approx.]')).toEqual([[5, 28]]);
    expect(findQuoteSpans('aaaa', 'a.*a')).toEqual([]);
  });

  it('ignores quotes too short to mean anything', () => {
    expect(findQuoteSpans('a b c a b c', 'a b')).toEqual([]);
    expect(findQuoteSpans('x', '   ')).toEqual([]);
  });
});

describe('highlightChunk', () => {
  it('escapes a chunk without quotes', () => {
    expect(highlightChunk('a <b> & "c"', [])).toBe('a &lt;b&gt; &amp; &quot;c&quot;');
  });

  it("wraps each agent's quotes in its own mark class", () => {
    const html = highlightChunk('Alpha beta gamma. Delta epsilon zeta.', [
      { text: 'Alpha beta gamma.', agent: 0 },
      { text: 'Delta epsilon', agent: 1 },
    ]);
    expect(html).toBe('<mark class="ev ev-0">Alpha beta gamma.</mark> <mark class="ev ev-1">Delta epsilon</mark> zeta.');
  });

  it('marks text quoted by two agents as shared, splitting overlaps exactly', () => {
    const html = highlightChunk('one two three four', [
      { text: 'one two three', agent: 0 },
      { text: 'two three four', agent: 1 },
    ]);
    expect(html).toBe('<mark class="ev ev-0">one </mark><mark class="ev ev-many">two three</mark><mark class="ev ev-1"> four</mark>');
  });

  it('matches quotes containing markup characters in the raw text and escapes them', () => {
    const chunk = 'Use <b>bold</b> & "quotes" here.';
    const html = highlightChunk(chunk, [{ text: '<b>bold</b> & "quotes"', agent: 0 }]);
    expect(html).toBe('Use <mark class="ev ev-0">&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quotes&quot;</mark> here.');
  });

  it('never lets a hostile chunk or quote inject markup', () => {
    const chunk = 'Before <script>alert(1)</script> <img src=x onerror="alert(2)"> ]]> after';
    const html = highlightChunk(chunk, [
      { text: '<script>alert(1)</script>', agent: 0 },
      { text: '<img src=x onerror="alert(2)">', agent: 1 },
      { text: '</mark><script>x</script>', agent: 0 },
    ]);
    expect(html).not.toMatch(/<(?!\/?mark[ >])/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('onerror&#x3D;&quot;alert(2)&quot;');
    expect(html).toContain(']]&gt;');
    // removing our marks gives back exactly the escaped chunk
    expect(html.replace(/<\/?mark[^>]*>/g, '')).toBe(escapeHtml(chunk));
  });

  it('keeps surrogate pairs whole', () => {
    const chunk = 'emoji \u{1F600} here and \u{1F600} there';
    const html = highlightChunk(chunk, [{ text: '\u{1F600} here', agent: 0 }]);
    expect(html).toBe('emoji <mark class="ev ev-0">\u{1F600} here</mark> and \u{1F600} there');
  });
});
