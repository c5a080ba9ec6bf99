import { describe, expect, it } from 'vitest';
import { carriesOwnMark, fillPageForm, PageFormError, pageTemplate, readPageForm } from './form.js';

const PAGE = `<!DOCTYPE html><html><body>
<form id="search"><input name="q" value="outside"></form>
<form method="post">
  <input type="hidden" id="assignmentId" name="assignmentId" value="">
  <input type="hidden" name="batch" value="b7">
  <section data-sim-key="k1">
    <label><input type="radio" name="item1_answer" value="yes"> Yes</label>
    <label><input type="radio" name="item1_answer" value="no"> No</label>
    <input type="checkbox" name="item1_difficult" value="yes">
    <input type="radio" name="item1_confidence" value="high" checked>
    <textarea name="item1_comment">pre-filled &amp; kept</textarea>
    <input type="hidden" name="item1_ms" value="0" data-sim-timer>
  </section>
  <div data-sim-key="k2"><div>
    <input type="radio" name="item2_answer" value="yes" disabled>
    <input type="radio" name="item2_answer" value="no">
    <input type="hidden" name="item2_ms" value="0" data-sim-timer>
  </div></div>
  <select name="mood"><option value="ok">ok</option><option value="good">good</option></select>
  <input type="checkbox" name="agree" checked>
  <input type="text" name="disabledField" value="x" disabled>
  <button type="submit" name="go" value="1">Submit</button>
</form></body></html>`;

describe('reading a HIT page form', () => {
  it('finds the items, their answer groups and every control a browser submits', () => {
    const form = readPageForm(PAGE);
    expect(form.items).toEqual([
      { key: 'k1', radioName: 'item1_answer', values: ['yes', 'no'] },
      { key: 'k2', radioName: 'item2_answer', values: ['no'] },
    ]);
    expect(form.controls.map((c) => `${c.kind}:${c.name}`)).toEqual([
      'value:assignmentId',
      'value:batch',
      'radio:item1_answer',
      'radio:item1_answer',
      'checkbox:item1_difficult',
      'radio:item1_confidence',
      'textarea:item1_comment',
      'timer:item1_ms',
      'radio:item2_answer',
      'timer:item2_ms',
      'select:mood',
      'checkbox:agree',
    ]);
  });

  it('fills it in as a person would: one answer per item, the time, everything else as it is', () => {
    const fields = fillPageForm(readPageForm(PAGE), {
      assignmentId: 'A1',
      answers: new Map([
        ['k1', 'no'],
        ['k2', 'no'],
      ]),
      timers: new Map([
        ['k1', 1234.4],
        ['k2', 99.6],
      ]),
    });
    expect(fields).toEqual([
      ['assignmentId', 'A1'],
      ['batch', 'b7'],
      ['item1_answer', 'no'],
      ['item1_confidence', 'high'],
      ['item1_comment', 'pre-filled & kept'],
      ['item1_ms', '1234'],
      ['item2_answer', 'no'],
      ['item2_ms', '100'],
      ['mood', 'ok'],
      ['agree', 'on'],
    ]);
  });

  it('says so when there is no form', () => {
    expect(() => readPageForm('<p>nothing to do</p>')).toThrow(PageFormError);
  });
});

describe('reading a <crowd-form> page', () => {
  const CROWD = `<crowd-form>
  <section data-sim-key="k1"><crowd-radio-group>
    <crowd-radio-button name="k1yes" value="yes">Yes</crowd-radio-button>
    <crowd-radio-button name="k1no" value="no">No</crowd-radio-button>
  </crowd-radio-group><input type="hidden" name="k1_ms" value="0" data-sim-timer></section>
  <crowd-radio-group><crowd-radio-button name="tone" value="calm" checked>calm</crowd-radio-button><crowd-radio-button name="loud">loud</crowd-radio-button></crowd-radio-group>
  <crowd-checkbox name="flag">flag</crowd-checkbox>
  <crowd-input name="n" type="number" value="7"></crowd-input>
  <crowd-slider name="s" min="2"></crowd-slider>
  <crowd-text-area name="t" value="x" disabled></crowd-text-area>
  <input type="hidden" name="batch" value="b1">
</crowd-form>`;

  it("finds the items in the crowd elements and submits what the form's script submits", () => {
    const form = readPageForm(CROWD);
    expect(form.crowd).toBe(true);
    expect(form.items).toEqual([{ key: 'k1', radioName: 'crowd-radio-group:1', values: ['yes', 'no'] }]);
    const fields = fillPageForm(form, { assignmentId: 'A1', answers: new Map([['k1', 'no']]), timers: new Map([['k1', 1500]]) });
    expect(fields.map(([name]) => name)).toEqual(['assignmentId', 'taskAnswers']);
    expect(fields[0]).toEqual(['assignmentId', 'A1']);
    expect(JSON.parse(fields[1]![1])).toEqual([
      {
        k1yes: { yes: false },
        k1no: { no: true },
        k1_ms: '1500',
        tone: { calm: true },
        loud: { loud: false },
        flag: { on: false },
        n: 7,
        s: 2,
        batch: 'b1',
      },
    ]);
  });

  it('prefers a real <form> when the page has one', () => {
    expect(readPageForm(`<crowd-form></crowd-form><form><input name="a" value="1"></form>`).crowd).toBe(false);
  });
  it("reads every assignment's page of a HIT as one template, which fills in as the page itself does", () => {
    // a frame names its assignment: the hidden field, the submit address with the assignment's token
    const pageOf = (assignmentId: string, token: string) =>
      PAGE.replace('<form method="post">', `<form method="post" action="http://mp/submit/${token}/mturk/externalSubmit">`).replace(
        'name="assignmentId" value=""',
        `name="assignmentId" value="${assignmentId}"`,
      );
    const own = (assignmentId: string, token: string) => [`http://mp/submit/${token}`, assignmentId, 'W9'];
    const first = pageTemplate(pageOf('A1', 'tok-1'), own('A1', 'tok-1'));
    expect(pageTemplate(pageOf('A2', 'tok-2'), own('A2', 'tok-2'))).toBe(first);
    expect(first).not.toContain('tok-1');
    const form = readPageForm(first);
    expect(carriesOwnMark(form)).toBe(false);
    const filling = { answers: new Map([['k1', 'yes']]), timers: new Map([['k1', 10]]) };
    for (const [id, token] of [
      ['A1', 'tok-1'],
      ['A2', 'tok-2'],
    ] as const)
      expect(fillPageForm(form, { ...filling, assignmentId: id })).toEqual(
        fillPageForm(readPageForm(pageOf(id, token)), { ...filling, assignmentId: id }),
      );
    // a page that shows its worker's id in a field it submits is not shared
    const showsWorker = PAGE.replace('name="batch" value="b7"', 'name="batch" value="b7-W9"');
    expect(carriesOwnMark(readPageForm(pageTemplate(showsWorker, own('A1', 'tok-1'))))).toBe(true);
  });
});
