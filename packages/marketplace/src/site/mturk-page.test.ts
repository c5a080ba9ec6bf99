import { describe, expect, it } from 'vitest';
import { htmlQuestionCsp } from './csp.js';
import { isMturkSubmitAddress, mturkScript, mturkScriptOf, PageSpots, rewriteMturkPage } from './mturk-page.js';

const origin = 'http://127.0.0.1:18500';
const submitUrl = `${origin}/submit/TOKEN/mturk/externalSubmit`;

describe('MTurk pages', () => {
  it("knows MTurk's script addresses, in their usual spellings", () => {
    expect(mturkScriptOf('https://s3.amazonaws.com/mturk-public/externalHIT_v1.js')).toBe('externalHIT_v1.js');
    expect(mturkScriptOf('//mturk-public.s3.amazonaws.com/externalHIT_v1.js')).toBe('externalHIT_v1.js');
    expect(mturkScriptOf('https://assets.crowd.aws/crowd-html-elements.js')).toBe('crowd-html-elements.js');
    expect(mturkScriptOf(' https://assets.crowd.aws/crowd-html-elements.js?v=2 ')).toBe('crowd-html-elements.js');
    expect(mturkScriptOf('https://evil.example/crowd-html-elements.js')).toBeUndefined();
    expect(mturkScriptOf('https://assets.crowd.aws/other.js')).toBeUndefined();
    expect(mturkScriptOf('externalHIT_v1.js')).toBeUndefined();
  });

  it("knows MTurk's submission addresses", () => {
    expect(isMturkSubmitAddress('https://www.mturk.com/mturk/externalSubmit')).toBe(true);
    expect(isMturkSubmitAddress('https://workersandbox.mturk.com/mturk/externalSubmit')).toBe(true);
    expect(isMturkSubmitAddress('https://www.mturk.com/mturk/other')).toBe(false);
    expect(isMturkSubmitAddress('/mturk/externalSubmit')).toBe(false);
  });

  it('rewrites the scripts and the submission address, and nothing else of the page', () => {
    const page = [
      '<!DOCTYPE html><html><head>',
      "<script src='https://s3.amazonaws.com/mturk-public/externalHIT_v1.js' type='text/javascript'></script>",
      '<script src="https://assets.crowd.aws/crowd-html-elements.js"></script>',
      '<script src="https://cdn.example/lib.js"></script>',
      '</head><body>',
      "<form name='mturk_form' method='post' id='mturk_form' action='https://www.mturk.com/mturk/externalSubmit'>",
      '<p title="Ünïcödé &amp; more">ça</p><input type="submit" id="submitButton"></form>',
      '<form action="https://example.org/keep"></form>',
      '</body></html>',
    ].join('\n');
    const out = rewriteMturkPage(page, { origin, submitUrl });
    expect(out).toBe(
      page
        .replace("src='https://s3.amazonaws.com/mturk-public/externalHIT_v1.js'", `src="${origin}/mturk/externalHIT_v1.js"`)
        .replace('src="https://assets.crowd.aws/crowd-html-elements.js"', `src="${origin}/mturk/crowd-html-elements.js"`)
        .replace("action='https://www.mturk.com/mturk/externalSubmit'", `action="${submitUrl}"`),
    );
    // a preview has no submission address: the form stays as written
    expect(rewriteMturkPage(page, { origin })).toContain("action='https://www.mturk.com/mturk/externalSubmit'");
    expect(rewriteMturkPage('<p>plain</p>', { origin, submitUrl })).toBe('<p>plain</p>');
  });

  it('gives each opening of the same page its own addresses (the page is read once, the addresses put in each time)', () => {
    const page = `<script src="https://assets.crowd.aws/crowd-html-elements.js"></script><crowd-form action="https://www.mturk.com/mturk/externalSubmit"></crowd-form>`;
    const other = 'http://localhost:9';
    const first = rewriteMturkPage(page, { origin, submitUrl });
    const second = rewriteMturkPage(page, { origin: other, submitUrl: `${other}/submit/OTHER/mturk/externalSubmit` });
    const preview = rewriteMturkPage(page, { origin });
    expect(first).toBe(`<script src="${origin}/mturk/crowd-html-elements.js"></script><crowd-form action="${submitUrl}"></crowd-form>`);
    expect(second).toBe(
      `<script src="${other}/mturk/crowd-html-elements.js"></script><crowd-form action="${other}/submit/OTHER/mturk/externalSubmit"></crowd-form>`,
    );
    expect(preview).toBe(
      `<script src="${origin}/mturk/crowd-html-elements.js"></script><crowd-form action="https://www.mturk.com/mturk/externalSubmit"></crowd-form>`,
    );
    // and an address with characters HTML gives a meaning to is escaped each time
    expect(rewriteMturkPage(page, { origin, submitUrl: `${origin}/s?a=1&b="2"` })).toContain(
      `action="${origin}/s?a=1&amp;b=&quot;2&quot;"`,
    );
  });

  it("gives a form's assignmentId input the assignment's id, so that the form submits with scripts off", () => {
    const page = [
      '<form method="post" action="https://www.mturk.com/mturk/externalSubmit">',
      '<input type="hidden" id="assignmentId" name="assignmentId" value="">',
      '<INPUT type=hidden name=assignmentId>',
      '<input name="other" value="kept"></form>',
      '<input name="assignmentId" value="outside any form">',
    ].join('\n');
    const out = rewriteMturkPage(page, { origin, submitUrl, assignmentId: 'A1"<' });
    expect(out).toBe(
      page
        .replace('action="https://www.mturk.com/mturk/externalSubmit"', `action="${submitUrl}"`)
        .replace('name="assignmentId" value=""', 'name="assignmentId" value="A1&quot;&lt;"')
        .replace('<INPUT type=hidden', '<INPUT value="A1&quot;&lt;" type=hidden'),
    );
    // a preview names no assignment: the inputs stay as written
    expect(rewriteMturkPage(page, { origin })).toBe(page);
  });

  it('finds the addresses of a long page near its top, further down, and in misnested markup alike', () => {
    const text = (n: number) => `<p>${'Words of a long case, and “quotes” — '.repeat(n)}</p>`;
    const form = [
      '<form method="post" action="https://www.mturk.com/mturk/externalSubmit">',
      '<input type="hidden" name="assignmentId" value="">',
    ].join('\n');
    const script = '<script>var a = "assignmentId"; f.action = "https://www.mturk.com/mturk/externalSubmit";</script>';
    const expected = (page: string) =>
      page
        .replace('action="https://www.mturk.com/mturk/externalSubmit"', `action="${submitUrl}"`)
        .replace('name="assignmentId" value=""', 'name="assignmentId" value="A2"');
    const opts = { origin, submitUrl, assignmentId: 'A2' };
    // spots at the top of a page of 40 KB, an inline script naming the same words at its end
    const top = `<!DOCTYPE html><html><body>${form}${text(1000)}</form>${script}</body></html>`;
    expect(rewriteMturkPage(top, opts)).toBe(expected(top));
    // spots past the start that is parsed with locations first
    const down = `<!DOCTYPE html><html><body>${text(400)}${form}${text(400)}</form>${script}</body></html>`;
    expect(down.indexOf('assignmentId')).toBeGreaterThan(8192);
    expect(rewriteMturkPage(down, opts)).toBe(expected(down));
    // a second form and input further down, after the first form was closed
    const both = `<html><body>${form}</form>${text(400)}<form action="https://www.mturk.com/mturk/externalSubmit"><input name="assignmentId"></form></body></html>`;
    expect(rewriteMturkPage(both, opts)).toBe(
      expected(both).replace(
        '<form action="https://www.mturk.com/mturk/externalSubmit"><input name="assignmentId">',
        `<form action="${submitUrl}"><input value="A2" name="assignmentId">`,
      ),
    );
    // an input inside a table that the form's end tag does not close: in the form as a browser builds it
    const table = `<html><body><table><form action="https://www.mturk.com/mturk/externalSubmit"><tr><td><input name="assignmentId" value=""></td></tr></form></table>${text(400)}</body></html>`;
    const tableOut = rewriteMturkPage(table, opts);
    expect(tableOut).toContain(`action="${submitUrl}"`);
    expect(tableOut).toContain('name="assignmentId" value=""');
  });

  it('rewrites a page as alike with its spots kept by a key, and locates another page under that key anew', () => {
    const page = `<script src="https://assets.crowd.aws/crowd-html-elements.js"></script><form action="https://www.mturk.com/mturk/externalSubmit"><input name="assignmentId" value=""></form>`;
    const moved = `<p>${'x'.repeat(50)}</p>${page}`;
    const spots = new PageSpots();
    const opts = { origin, submitUrl, assignmentId: 'A3' };
    for (let i = 0; i < 2; i++) expect(rewriteMturkPage(page, opts, { spots, key: 'HIT1' })).toBe(rewriteMturkPage(page, opts));
    expect(rewriteMturkPage(moved, opts, { spots, key: 'HIT1' })).toBe(rewriteMturkPage(moved, opts));
    expect(rewriteMturkPage(moved, opts, { spots, key: 'HIT1' })).toContain(
      `<form action="${submitUrl}"><input name="assignmentId" value="A3">`,
    );
    expect(rewriteMturkPage('<p>plain</p>', opts, { spots, key: 'HIT2' })).toBe('<p>plain</p>');
  });

  it('serves the two scripts and lets the frame load exactly them', () => {
    expect(mturkScript('externalHIT_v1.js')).toContain('function turkSetAssignmentID');
    expect(mturkScript('crowd-html-elements.js')).toContain("'crowd-form': CrowdForm");
    expect(mturkScript('../views.ts')).toBeUndefined();
    expect(htmlQuestionCsp(origin)).toContain(
      `script-src 'unsafe-inline' ${origin}/mturk/externalHIT_v1.js ${origin}/mturk/crowd-html-elements.js;`,
    );
  });
});
