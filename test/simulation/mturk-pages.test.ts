import { CreateHITCommand, ListAssignmentsForHITCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { parseAnswersXml } from '@qrelay/marketplace';
import type { SimulationProgress } from '../../src/simulation/index.js';
import { itemKeys } from '../marketplace/hit-pages.js';
import { brokenPage, crowdFormItemsPage, htmlQuestionOf } from '../marketplace/mturk-page-fixtures.js';
import { hitParams, useMarketplace } from '../marketplace/support.js';
import { admin, basePopulation, runUntil } from './support.js';

/**
 * Simulated workers on pages written for MTurk: they open the same frame a person does and
 * post what the page's form (here the <crowd-form> of crowd-html-elements.js) would post;
 * a page that cannot be submitted fails their submissions as it fails a person's.
 */

const h = useMarketplace();

async function hitWith(page: string): Promise<string> {
  const { HIT } = await h
    .client()
    .send(new CreateHITCommand(hitParams({ Question: htmlQuestionOf(page), MaxAssignments: 3, AssignmentDurationInSeconds: 900 })));
  return HIT!.HITId!;
}

describe('simulated workers on MTurk pages', () => {
  it('fill in a <crowd-form> and submit taskAnswers as its script does', async () => {
    const keys = itemKeys('crowd', 2);
    await admin(h, 'PUT', '/population', basePopulation({ seed: 'crowd', size: 5 }));
    await admin(h, 'PUT', '/oracle', { [keys[0]!]: { truth: 'yes' }, [keys[1]!]: { truth: 'no' } });
    const hitId = await hitWith(crowdFormItemsPage(keys));
    h.running.marketplace.clock.setSpeed(100_000);
    await admin(h, 'POST', '/start');
    const done = await runUntil(h, (p) => p.assignments.submitted + p.assignments.failed >= 3 || p.errors.count > 0);
    await admin(h, 'POST', '/stop');
    expect(done.errors).toEqual({ count: 0 });
    expect(done.assignments).toMatchObject({ submitted: 3, failed: 0 });
    const { Assignments = [] } = await h.client().send(new ListAssignmentsForHITCommand({ HITId: hitId }));
    expect(Assignments).toHaveLength(3);
    for (const a of Assignments) {
      const answers = parseAnswersXml(a.Answer!);
      expect(answers.map((x) => x.questionIdentifier)).toEqual(['taskAnswers']);
      const [task] = JSON.parse(answers[0]!.freeText!) as [Record<string, unknown>];
      expect(Object.keys(task).sort()).toEqual([
        'comment',
        'confidence',
        'item1_difficult',
        'item1_ms',
        'item1_no',
        'item1_yes',
        'item2_difficult',
        'item2_ms',
        'item2_no',
        'item2_yes',
      ]);
      for (const i of [1, 2]) {
        const yes = (task[`item${i}_yes`] as { yes: boolean }).yes;
        const no = (task[`item${i}_no`] as { no: boolean }).no;
        expect(yes !== no).toBe(true); // exactly one choice per item
        expect(task[`item${i}_difficult`]).toEqual({ yes: false });
        expect(task[`item${i}_ms`]).toMatch(/^\d+$/);
      }
      expect(task).toMatchObject({ comment: '', confidence: 3 });
    }
  });

  it('fail to submit a page that cannot be submitted, as a person would', async () => {
    const keys = itemKeys('broken', 1);
    await admin(h, 'PUT', '/population', basePopulation({ seed: 'broken', size: 3 }));
    await hitWith(brokenPage(keys));
    h.running.marketplace.clock.setSpeed(100_000);
    await admin(h, 'POST', '/start');
    const done = await runUntil(h, (p: SimulationProgress) => p.assignments.failed >= 1 || p.assignments.submitted >= 1);
    await admin(h, 'POST', '/stop');
    expect(done.assignments.submitted).toBe(0);
    expect(done.assignments.failed).toBeGreaterThanOrEqual(1);
  });
});
