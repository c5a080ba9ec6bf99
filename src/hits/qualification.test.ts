import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAnswerFields } from './answers.js';
import { QUALIFICATION_DIR } from './presets.js';
import { checkQualificationTest, loadQualificationTest, scoreQualificationTest } from './qualification.js';
import { MAX_QUESTION_BYTES } from './render.js';

const exam = loadQualificationTest('dream-exam');

/** The key's correct selection per question, read independently of the module under test. */
const correct = Object.fromEntries(
  [...exam.answerKey.matchAll(/<QuestionIdentifier>([^<]+)<\/QuestionIdentifier>\s*<AnswerOption>\s*<SelectionIdentifier>([^<]+)</g)].map(
    (m) => [m[1], m[2]],
  ),
);

describe('the dream-exam qualification test', () => {
  it('has 8-12 relevance questions written like the task and 1-2 English comprehension items', () => {
    const relevance = exam.questions.filter((q) => q.startsWith('rel'));
    const english = exam.questions.filter((q) => q.startsWith('eng'));
    expect(relevance.length).toBeGreaterThanOrEqual(8);
    expect(relevance.length).toBeLessThanOrEqual(12);
    expect(english.length).toBeGreaterThanOrEqual(1);
    expect(english.length).toBeLessThanOrEqual(2);
    expect(exam.test.match(/<Text>Query: /g)).toHaveLength(relevance.length);
    expect(exam.test.match(/Does the chunk contain enough evidence to support at least one answer\?/g)).toHaveLength(relevance.length);
  });

  it('balances yes and no among the relevance questions', () => {
    const labels = exam.questions.filter((q) => q.startsWith('rel')).map((q) => correct[q]);
    expect(labels.filter((l) => l === 'yes').length).toBe(labels.filter((l) => l === 'no').length);
  });

  it('is stored as files under 65,535 bytes each, with the metadata the pipeline needs', () => {
    for (const file of ['dream-exam.test.xml', 'dream-exam.answerkey.xml', 'dream-exam.json']) {
      expect(readFileSync(join(QUALIFICATION_DIR, file)).length).toBeLessThanOrEqual(MAX_QUESTION_BYTES);
    }
    expect(exam).toMatchObject({ id: 'dream-exam', passScore: 90, testDurationSeconds: 1200 });
  });

  it('scores 100 for all correct, passes one mistake and fails two at the pass mark of 90', () => {
    expect(scoreQualificationTest(exam.answerKey, correct)).toBe(100);
    const flip = (ids: string[]) => ({ ...correct, ...Object.fromEntries(ids.map((id) => [id, correct[id] === 'yes' ? 'no' : 'z'])) });
    expect(scoreQualificationTest(exam.answerKey, flip(['rel03']))).toBe(92);
    expect(scoreQualificationTest(exam.answerKey, flip(['rel03', 'eng01']))).toBe(83);
    expect(scoreQualificationTest(exam.answerKey, {})).toBe(0);
    // always answering yes fails
    const allYes = Object.fromEntries(exam.questions.map((q) => [q, 'yes']));
    expect(scoreQualificationTest(exam.answerKey, allYes)).toBeLessThan(exam.passScore);
  });

  it('scores a QuestionFormAnswers submission read by the answer parser', () => {
    const xml = `<QuestionFormAnswers xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd">${Object.entries(
      correct,
    )
      .map(([q, s]) => `<Answer><QuestionIdentifier>${q}</QuestionIdentifier><SelectionIdentifier>${s}</SelectionIdentifier></Answer>`)
      .join('')}</QuestionFormAnswers>`;
    expect(scoreQualificationTest(exam.answerKey, Object.fromEntries(parseAnswerFields(xml)))).toBe(100);
  });
});

describe('checkQualificationTest', () => {
  const NSQ = 'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd';
  const NSK = 'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd';
  const question = (id: string) =>
    `<Question><QuestionIdentifier>${id}</QuestionIdentifier><IsRequired>true</IsRequired><QuestionContent><Text>Q</Text></QuestionContent>` +
    '<AnswerSpecification><SelectionAnswer><StyleSuggestion>radiobutton</StyleSuggestion><Selections>' +
    '<Selection><SelectionIdentifier>yes</SelectionIdentifier><Text>Yes</Text></Selection><Selection><SelectionIdentifier>no</SelectionIdentifier><Text>No</Text></Selection>' +
    '</Selections></SelectionAnswer></AnswerSpecification></Question>';
  const form = (body = question('a') + question('b')) =>
    `<QuestionForm xmlns="${NSQ}"><Overview><Text>Hi</Text></Overview>${body}</QuestionForm>`;
  const keyQ = (id: string, sel = 'yes', score = '1') =>
    `<Question><QuestionIdentifier>${id}</QuestionIdentifier><AnswerOption><SelectionIdentifier>${sel}</SelectionIdentifier><AnswerScore>${score}</AnswerScore></AnswerOption></Question>`;
  const key = (body = keyQ('a') + keyQ('b'), max = '2') =>
    `<AnswerKey xmlns="${NSK}">${body}<QualificationValueMapping><PercentageMapping><MaximumSummedScore>${max}</MaximumSummedScore></PercentageMapping></QualificationValueMapping></AnswerKey>`;

  it('accepts a consistent test and key', () => {
    expect(checkQualificationTest(form(), key())).toEqual({ questions: ['a', 'b'], maxScore: 2 });
  });

  it.each([
    ['a key for a question the test lacks', form(), key(keyQ('a') + keyQ('c')), /question "c": the test has no such question/],
    ['an unanswered question', form(), key(keyQ('a'), '1'), /no answer for question\(s\) b/],
    ['a selection the test lacks', form(), key(keyQ('a') + keyQ('b', 'maybe')), /the test has no selection "maybe"/],
    ['a wrong maximum', form(), key(keyQ('a') + keyQ('b'), '3'), /MaximumSummedScore is "3" but the best possible summed score is 2/],
    ['a non-integer score', form(), key(keyQ('a') + keyQ('b', 'yes', 'x')), /AnswerScore must be a whole number/],
    [
      'elements out of schema order',
      form(
        question('a')
          .replace('<IsRequired>true</IsRequired>', '')
          .replace('</QuestionContent>', '</QuestionContent><IsRequired>true</IsRequired>'),
      ),
      key(keyQ('a'), '1'),
      /qualification test, question "a": expected 1 <AnswerSpecification> at this place in <Question>, found <IsRequired> instead/,
    ],
    ['a wrong namespace', form().replace(NSQ, 'urn:x'), key(), /root must be <QuestionForm xmlns=/],
    ['duplicate question ids', form(question('a') + question('a')), key(keyQ('a'), '1'), /must be non-empty and unique/],
    [
      'a missing mapping',
      form(),
      key().replace(/<QualificationValueMapping>.*<\/QualificationValueMapping>/, ''),
      /expected a <QualificationValueMapping><PercentageMapping>/,
    ],
    ['malformed XML', form().slice(0, -5), key(), /not well-formed XML: line 1/],
    [
      'a test over 65,535 bytes',
      form(question('a') + question('b') + `<Question>${'x'.repeat(70_000)}</Question>`),
      key(),
      /over MTurk's limit of 65535/,
    ],
  ])('refuses %s', (_what, test, answerKey, message) => {
    expect(() => checkQualificationTest(test, answerKey)).toThrow(message);
  });

  it('names a missing qualification test', () => {
    expect(() => loadQualificationTest('no-such-exam')).toThrow(/no qualification test named "no-such-exam"/);
  });
});
