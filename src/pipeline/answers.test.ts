import { describe, expect, it } from 'vitest';
import type { PlannedItem } from '../hits/index.js';
import { readAnswers } from './answers.js';

const key = (n: number) => n.toString(16).padStart(16, '0');
const items: PlannedItem[] = [
  { kind: 'real', position: 1, key: key(1), queryId: 'q:1', chunkId: 'd1', dataset: 'x' },
  { kind: 'check', position: 2, key: key(2), queryId: 'g', chunkId: 'd9', dataset: 'x', expected: 'yes' },
];
const xml = (fields: Record<string, string>) =>
  `<QuestionFormAnswers xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd">${Object.entries(
    fields,
  )
    .map(([k, v]) => `<Answer><QuestionIdentifier>${k}</QuestionIdentifier><FreeText>${v}</FreeText></Answer>`)
    .join('')}</QuestionFormAnswers>`;

describe('readAnswers', () => {
  it('ties each answer to its planned item: real items by item id, checks apart', () => {
    const { answers, parseError } = readAnswers(
      { batch: 'b', items },
      xml({ item1_answer: 'no', item1_ms: '4200', item1_difficult: 'yes', item1_comment: 'hm', item2_answer: 'yes' }),
    );
    expect(parseError).toBeNull();
    expect(answers).toEqual([
      {
        position: 1,
        key: key(1),
        kind: 'real',
        item: 'b|q%3A1:d1',
        answer: 'no',
        difficult: true,
        comment: 'hm',
        ms: 4200,
        copies: 0,
        pastes: 0,
        focusLosses: 0,
      },
      {
        position: 2,
        key: key(2),
        kind: 'check',
        item: 'check|g:d9',
        answer: 'yes',
        difficult: false,
        comment: '',
        ms: null,
        copies: 0,
        pastes: 0,
        focusLosses: 0,
      },
    ]);
  });

  it('keeps an unreadable answer as no answers with the reason', () => {
    expect(readAnswers({ batch: 'b', items }, '<oops')).toEqual({ answers: [], parseError: expect.stringMatching(/assignment answer/) });
    expect(readAnswers({ batch: 'b', items }, xml({ item1_answer: 'maybe' })).parseError).toMatch(/item1_answer must be "yes" or "no"/);
  });
});
