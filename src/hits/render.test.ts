import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, serialize } from 'parse5';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { debateFor } from '../../test/hits/fixtures.js';
import type { DebateTurn } from '../domain/cases.js';
import { summariseDebate } from './debate-view.js';
import { canaryText, canaryWord } from './canary.js';
import { HTML_QUESTION_NS, NARROW_UP_TO, narrowPage, renderHitPage, toHtmlQuestionXml, toXmlChars, type HitPageItem } from './render.js';
import { HIT_TEMPLATE_DIR, loadHitTemplates } from './templates.js';

const HOSTILE = 'x <script>window.__pwned=1</script> "quoted" & \'single\' ]]> <img src=x onerror="window.__pwned=2"> {{title}}';

const item = (position: number, over: Partial<HitPageItem> = {}): HitPageItem => {
  const chunk = `Chunk ${position}: the bridge opened in 1932. It was widened in 1958.`;
  return {
    position,
    key: `${position}`.padStart(16, '0'),
    query: `query ${position}`,
    answers: [`answer ${position}`],
    chunk,
    debate: debateFor(chunk),
    ...over,
  };
};

/** The names of the form's controls, in document order. */
const names = (html: string) => [...html.matchAll(/<(?:input|textarea|select|button)\b[^>]*\sname="([^"]+)"/g)].map((m) => m[1]);

describe('renderHitPage', () => {
  it('renders each item with its query, numbered answers, chunk, debate and question', () => {
    const html = renderHitPage({ items: [item(1), item(2, { answers: ['first', 'second'] })], hideDebate: false });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<p class="query">query 2</p>');
    expect(html).toContain('<ol class="answers"><li>first</li><li>second</li></ol>');
    expect(html).toContain('Does the chunk contain enough evidence to support at least one answer?');
    expect(html).toContain('<mark class="ev ev-0">Chunk 2: the bridge opened in 1932</mark>');
    expect(html).toContain('<h4>Agent A</h4>');
    expect(html).toContain('Started from: <strong>not relevant</strong>. Final verdict: <strong>no, not enough evidence</strong>.');
    expect(html).toContain('The scope differs from the query.'); // B's last-round reasoning
    expect(html).not.toContain('The chunk only shares words with the query.'); // B's first-round reasoning
    expect(html).toContain('<details class="guideline" open>');
    for (const rule of [
      'Same scope',
      'Key content present',
      'Stated directly',
      'Same intent',
      'Complete information',
      'No surface matching',
      'Do not judge whether the answers are correct',
    ]) {
      expect(html).toContain(rule);
    }
    expect(html).toContain('Example 1: Yes.');
    expect(html).toContain('Example 2: No.');
  });

  it('says so when a query has no answers', () => {
    expect(renderHitPage({ items: [item(1, { answers: [] })], hideDebate: false })).toContain('No answers were given for this query');
  });

  it('posts exactly the documented fields, one radio group per item and a timer per item', () => {
    const html = renderHitPage({ items: [item(1), item(2), item(3)], hideDebate: false });
    const expected = [
      'assignmentId',
      ...[1, 2, 3].flatMap((i) => [
        `item${i}_answer`,
        `item${i}_answer`,
        `item${i}_difficult`,
        `item${i}_comment`,
        `item${i}_ms`,
        `item${i}_copies`,
        `item${i}_pastes`,
        `item${i}_focus_losses`,
      ]),
    ];
    expect(names(html)).toEqual(expected);
    expect(html.match(/<form /g)).toHaveLength(1);
    // the form names MTurk's submission address itself: it submits with scripts off (the platform points it at turkSubmitTo)
    expect(html).toContain('<form id="hit-form" method="post" action="https://www.mturk.com/mturk/externalSubmit">');
    for (const i of [1, 2, 3]) {
      const section = html.slice(html.indexOf(`id="item${i}"`), html.indexOf('</section>', html.indexOf(`id="item${i}"`)));
      expect(section).toContain(`data-sim-key="${item(i).key}"`);
      expect(section.match(/type="radio"/g)).toHaveLength(2);
      // required: without the page's script the browser itself asks for every item's answer
      expect(section).toContain(`<input type="radio" name="item${i}_answer" value="yes" required>`);
      expect(section).toContain(`<input type="radio" name="item${i}_answer" value="no">`);
      expect(section).toContain(`<input type="hidden" name="item${i}_ms" value="0" data-sim-timer>`);
      expect(section).toContain(`<label for="item${i}-comment">`);
      expect(section).toContain(`<input type="hidden" name="item${i}_copies" value="0" data-sim-event="copy">`);
      expect(section).toContain(`<input type="hidden" name="item${i}_pastes" value="0" data-sim-event="paste">`);
      expect(section).toContain(`<input type="hidden" name="item${i}_focus_losses" value="0" data-sim-event="focus-loss">`);
    }
  });

  it("carries each item's canary, hidden from sight and from screen readers, unless turned off", () => {
    const html = renderHitPage({ items: [item(1), item(2)], hideDebate: false });
    for (const i of [1, 2]) {
      const section = html.slice(html.indexOf(`id="item${i}"`), html.indexOf('</section>', html.indexOf(`id="item${i}"`)));
      expect(section).toContain(`<p class="cue" aria-hidden="true">${canaryText(item(i).key)}</p>`);
      expect(section).toContain(canaryWord(item(i).key));
    }
    expect(canaryWord(item(1).key)).not.toBe(canaryWord(item(2).key));
    expect(html).toMatch(/\.cue\{position:absolute;width:1px;height:1px;[^}]*clip:rect\(0 0 0 0\)/);
    const without = renderHitPage({ items: [item(1)], hideDebate: false, canary: false });
    expect(without).not.toContain('class="cue"');
    expect(without).not.toContain('code word');
  });

  it('hides the debate and its highlights when asked', () => {
    const html = renderHitPage({ items: [item(1)], hideDebate: true });
    expect(html).not.toContain('class="debate"');
    expect(html).not.toContain('<mark');
    expect(html).not.toContain('two AI assessors');
    expect(html).toContain('class="evidence alone"');
  });

  it('escapes every case text: a hostile query, answer, chunk, reasoning or reference cannot add markup', () => {
    const turn: DebateTurn = {
      round: 1,
      agent: HOSTILE,
      stance: 'relevant',
      label: 'yes',
      reasoning: HOSTILE,
      references: [HOSTILE, '<script>window.__pwned=1</script>'],
    };
    const html = renderHitPage({
      items: [item(1, { query: HOSTILE, answers: [HOSTILE], chunk: `${HOSTILE}\n${HOSTILE}`, debate: [turn] })],
      hideDebate: false,
    });
    expect(html.match(/<script/g)).toHaveLength(1); // ours
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror="');
    expect(html).not.toContain(']]>');
    expect(html).toContain('&lt;script&gt;window.__pwned&#x3D;1&lt;/script&gt;');
    expect(html).toContain('{{title}}'); // case text is never evaluated as a template
  });

  it('loads nothing from the network and admits only its own inline style and script', () => {
    const templates = loadHitTemplates();
    const html = renderHitPage({ items: [item(1)], hideDebate: false }, templates);
    expect(html).not.toMatch(/\s(src|href)=/);
    expect(html).not.toMatch(/@import|url\(/);
    const csp = (/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '')
      .replaceAll('&#x27;', "'")
      .replaceAll('&#x3D;', '=');
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
    // the script as sent: no comment lines or indentation, which every HIT page would carry against MTurk's 64 KB
    expect(script).not.toMatch(/^\s|^\/\//m);
    expect(script).toContain("var PREVIEW_ID = 'ASSIGNMENT_ID_NOT_AVAILABLE';");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain(`script-src ${hash(script)}`);
    expect(csp).toContain(`style-src ${hash(style)}`);
  });

  it('refuses items out of order or sharing a key', () => {
    expect(() => renderHitPage({ items: [item(2)], hideDebate: false })).toThrow(RangeError);
    expect(() => renderHitPage({ items: [item(1), item(2, { key: item(1).key })], hideDebate: false })).toThrow(/share the key/);
    expect(() => renderHitPage({ items: [], hideDebate: false })).toThrow(/at least one item/);
  });
});

describe('toHtmlQuestionXml', () => {
  const parse = (xml: string) =>
    new XMLParser({ parseTagValue: false, trimValues: false, ignoreAttributes: false }).parse(xml) as {
      HTMLQuestion: { HTMLContent: string; FrameHeight: string; '@_xmlns': string };
    };

  it('wraps the page in an HTMLQuestion that gives the exact HTML back', () => {
    const html = renderHitPage({ items: [item(1)], hideDebate: false });
    const xml = toHtmlQuestionXml(html, 0);
    expect(XMLValidator.validate(xml)).toBe(true);
    const q = parse(xml).HTMLQuestion;
    expect(q['@_xmlns']).toBe(HTML_QUESTION_NS);
    expect(q.HTMLContent).toBe(`\n${html}\n`);
    expect(q.FrameHeight).toBe('0');
    expect(parse(toHtmlQuestionXml(html, 640)).HTMLQuestion.FrameHeight).toBe('640');
  });

  it('keeps a "]]>" inside the content from closing the CDATA section', () => {
    const html = '<p>a ]]> b ]]]]> c</p><script>if (x[y[0]]>1) {}</script>';
    const xml = toHtmlQuestionXml(html, 0);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parse(xml).HTMLQuestion.HTMLContent).toBe(`\n${html}\n`);
    expect(xml.match(/<HTMLContent>/g)).toHaveLength(1);
  });

  it('carries a hostile page safely: the XML stays well-formed and the HTML unchanged', () => {
    const html = renderHitPage({
      items: [item(1, { chunk: HOSTILE, query: ']]></HTMLContent><FrameHeight>1</FrameHeight>' })],
      hideDebate: false,
    });
    const xml = toHtmlQuestionXml(html, 0);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parse(xml).HTMLQuestion.HTMLContent).toBe(`\n${html}\n`);
    expect(parse(xml).HTMLQuestion.FrameHeight).toBe('0');
  });

  it('replaces characters XML cannot carry', () => {
    expect(toXmlChars('a\u0000b\u0008c\td\ne\u000bf\uFFFEg\uD800h\u{1F600}')).toBe('a\uFFFDb\uFFFDc\td\ne\uFFFDf\uFFFDg\uFFFDh\u{1F600}');
    const xml = toHtmlQuestionXml('<p>\u0001</p>', 0);
    expect(XMLValidator.validate(xml)).toBe(true);
  });

  it('refuses a bad frame height', () => {
    expect(() => toHtmlQuestionXml('<p></p>', -1)).toThrow(RangeError);
    expect(() => toHtmlQuestionXml('<p></p>', 1.5)).toThrow(RangeError);
  });
});

describe('summariseDebate', () => {
  it('summarises each agent from its first and last turns, in order of first appearance', () => {
    const debate: DebateTurn[] = [
      { round: 2, agent: 'skeptic', stance: 'irrelevant', label: 'yes', reasoning: 'changed my mind', references: ['r2'] },
      { round: 1, agent: 'believer', stance: 'relevant', label: 'yes', reasoning: 'b1', references: [] },
      { round: 1, agent: 'skeptic', stance: 'irrelevant', label: 'no', reasoning: 's1', references: ['r1'] },
      { round: 3, agent: 'believer', stance: 'relevant', label: 'no', reasoning: 'b3', references: ['q'] },
      { round: 3, agent: 'believer', stance: 'relevant', label: 'yes', reasoning: 'b3 again', references: ['q2'] },
    ];
    expect(summariseDebate(debate)).toEqual([
      { name: 'Agent A', index: 0, initialStance: 'relevant', finalLabel: 'yes', reasoning: 'b3 again', references: ['q2'] },
      { name: 'Agent B', index: 1, initialStance: 'irrelevant', finalLabel: 'yes', reasoning: 'changed my mind', references: ['r2'] },
    ]);
  });

  it('names many agents A..Z, AA..', () => {
    const debate = Array.from({ length: 28 }, (_, i): DebateTurn => ({
      round: 1,
      agent: `a${i}`,
      stance: 'relevant',
      label: 'yes',
      reasoning: '',
      references: [],
    }));
    expect(
      summariseDebate(debate)
        .map((a) => a.name)
        .slice(24),
    ).toEqual(['Agent Y', 'Agent Z', 'Agent AA', 'Agent AB']);
  });
});

describe('narrowPage', () => {
  const text = (html: string) => serialize(parse(html));

  it('writes a few characters above U+00FF as references, the page alike to an HTML parser', () => {
    const wide = '<!DOCTYPE html><html><head><title>query–chunk</title></head><body><p title="“x”">a ł b 😀 c</p></body></html>';
    const narrow = narrowPage(wide);
    expect(narrow).toBe(
      '<!DOCTYPE html><html><head><title>query&#8211;chunk</title></head><body><p title="&#8220;x&#8221;">a &#322; b &#128512; c</p></body></html>',
    );
    expect(/[^\t-\u00ff]/.test(narrow)).toBe(false);
    expect(text(narrow)).toBe(text(wide));
  });

  it('leaves a page of Latin-1 characters, and one with many wide characters, as it is', () => {
    const latin = '<p>café, naïve: ½ × 3</p>';
    expect(narrowPage(latin)).toBe(latin);
    const many = `<p>${'字'.repeat(NARROW_UP_TO + 1)}</p>`;
    expect(narrowPage(many)).toBe(many);
    expect(narrowPage(`<p>${'字'.repeat(NARROW_UP_TO)}</p>`)).toBe(`<p>${'&#23383;'.repeat(NARROW_UP_TO)}</p>`);
  });

  it('leaves what toXmlChars replaces to it: lone surrogates, U+FFFE and U+FFFF', () => {
    const odd = '<p>\uD800 \uDC00 \uFFFE \uFFFF –</p>';
    expect(narrowPage(odd)).toBe('<p>\uD800 \uDC00 \uFFFE \uFFFF &#8211;</p>');
  });

  it('makes a rendered page one byte a character when its texts have few wide characters, and reads the same', () => {
    const items: HitPageItem[] = [
      { position: 1, key: 'k'.repeat(16), query: 'Łódź – “quoted”', answers: ['1–2'], chunk: 'A chunk — with ‘quotes’.', debate: [] },
    ];
    const page = renderHitPage({ items, hideDebate: true });
    expect(/[^\t-\u00ff]/.test(page)).toBe(false);
    const doc = parse(page);
    const body = serialize(doc);
    for (const shown of ['Łódź – “quoted”', '1–2', 'A chunk — with ‘quotes’.', 'query–chunk']) expect(body).toContain(shown);
  });

  it('has templates of ASCII alone, so that no wide character lands in a script, a style or a comment', () => {
    const t = loadHitTemplates();
    expect(/[^\t-\u007f]/.test(t.style + t.script + t.csp)).toBe(false);
    for (const name of readdirSync(HIT_TEMPLATE_DIR)) expect(readFileSync(join(HIT_TEMPLATE_DIR, name), 'utf8')).toMatch(/^[\t-\u007f]*$/);
  });
});
