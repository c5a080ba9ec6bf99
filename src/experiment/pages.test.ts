import { describe, expect, it } from 'vitest';
import { makeCases, makeGold, PRICING } from '../../test/hits/fixtures.js';
import { planHits } from '../hits/plan.js';
import { htmlOfQuestion } from '../tasks/routes.js';
import { externalQuestionXml, pageArm, visitorOf } from './pages.js';

const keysOf = (html: string) => [...html.matchAll(/data-sim-key="([^"]+)"/g)].map((m) => m[1]);
const fieldsOf = (html: string) => [...html.matchAll(/name="(item\d+_\w+)"/g)].map((m) => m[1]);

describe('the debate experiment pages', () => {
  it('plans each page twice, with and without the debate, with the same items, checks and fields', () => {
    const plan = planHits(
      { cases: makeCases(20), gold: makeGold(6, 6) },
      { seed: 's', layout: { itemsPerHit: 5, checksPerHit: 1 }, pricing: PRICING, withoutDebate: true },
    );
    expect(plan.questions.length).toBeGreaterThan(1);
    for (const q of plan.questions) {
      const debate = htmlOfQuestion(q.xml)!;
      const without = htmlOfQuestion(q.withoutDebateXml!)!;
      expect(debate).toContain('class="debate"');
      expect(without).not.toContain('class="debate"');
      expect(without).not.toContain('What two AI assessors argued');
      expect(keysOf(without)).toEqual(keysOf(debate));
      expect(fieldsOf(without)).toEqual(fieldsOf(debate));
    }
  });

  it('renders no second page unless asked, and none when the batch hides the debate anyway', () => {
    const input = { cases: makeCases(6), gold: makeGold(3, 3) };
    const plain = planHits(input, { seed: 's', layout: {}, pricing: PRICING });
    expect(plain.questions.every((q) => q.withoutDebateXml === undefined)).toBe(true);
    const hidden = planHits(input, { seed: 's', layout: { hideDebate: true }, pricing: PRICING, withoutDebate: true });
    expect(hidden.questions.every((q) => q.withoutDebateXml === undefined)).toBe(true);
  });

  it('writes an ExternalQuestion with the URL escaped', () => {
    expect(externalQuestionXml('https://q.example/tasks/b/0?sig=a&x=<1>', 0)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<ExternalQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd">' +
        '<ExternalURL>https://q.example/tasks/b/0?sig=a&amp;x=&lt;1&gt;</ExternalURL><FrameHeight>0</FrameHeight></ExternalQuestion>',
    );
    expect(() => externalQuestionXml('https://q.example', -1)).toThrow(/frameHeight -1/);
  });

  it('shows a preview the page without the debate, and a worker the page of their arm', () => {
    expect(visitorOf({})).toEqual({ kind: 'preview' });
    expect(visitorOf({ workerId: 'W1', assignmentId: 'ASSIGNMENT_ID_NOT_AVAILABLE' })).toEqual({ kind: 'preview' });
    const worker = visitorOf({ workerId: 'W1', assignmentId: 'A1' });
    expect(worker).toEqual({ kind: 'worker', workerId: 'W1' });
    expect(pageArm({ kind: 'preview' }, undefined)).toBe('no-debate');
    expect(pageArm(worker, 'debate')).toBe('debate');
    expect(pageArm(worker, 'no-debate')).toBe('no-debate');
  });
});
