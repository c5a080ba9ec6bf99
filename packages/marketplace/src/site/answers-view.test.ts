import { describe, expect, it } from 'vitest';
import { formAnswersXml } from '../domain/answers-xml.js';
import { hiddenFieldNames, workerAnswers } from './answers-view.js';

const page = [
  '<form method="post" action="https://www.mturk.com/mturk/externalSubmit">',
  '<input type="hidden" name="assignmentId" value="">',
  '<input type="radio" name="item1_answer" value="yes"><input type="radio" name="item1_answer" value="no">',
  '<textarea name="item1_comment"></textarea>',
  '<input type="HIDDEN" name="item1_ms" value="0"><input type="hidden" name="item1_copies" value="0">',
  // a name that a visible control also carries is the worker's
  '<input type="hidden" name="note" value=""><input type="text" name="note">',
  '</form>',
].join('');

describe("the worker's answers on the worker site", () => {
  it('knows the fields only hidden inputs carry', () => {
    expect([...hiddenFieldNames(page)].sort()).toEqual(['assignmentId', 'item1_copies', 'item1_ms']);
  });

  it("shows what the worker entered, not the page's telemetry", () => {
    const xml = formAnswersXml({ item1_answer: 'yes', item1_comment: 'clear', item1_ms: '15000', item1_copies: '2', note: 'n' });
    expect(workerAnswers({ kind: 'HTMLQuestion', html: page, frameHeight: 0 }, xml)).toEqual([
      { question: 'item1_answer', answer: 'yes' },
      { question: 'item1_comment', answer: 'clear' },
      { question: 'note', answer: 'n' },
    ]);
    // an ExternalQuestion's page is not the marketplace's to read: every field is shown
    expect(workerAnswers({ kind: 'ExternalQuestion', url: 'https://example.org/task', frameHeight: 0 }, xml)).toHaveLength(5);
  });
});
