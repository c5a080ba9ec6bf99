import { describe, expect, it } from 'vitest';
import { thrownError } from './testing.js';
import { checkAnswerKeyAgainstTest, parseAnswerKey, scoreTest } from './answer-key.js';
import { answersXml, formAnswersXml, parseAnswersXml, QUESTION_FORM_ANSWERS_NS } from './answers-xml.js';
import { parseQuestion, parseTest } from './question-xml.js';
import { escapeXml } from './xml.js';

const QF = 'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd';
const AK = 'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd';

const test = `<QuestionForm xmlns="${QF}">
  <Overview><Title>English and relevance</Title><Text>Answer both questions.</Text></Overview>
  <Question>
    <QuestionIdentifier>q1</QuestionIdentifier><IsRequired>true</IsRequired>
    <QuestionContent><Text>Is "Paris is the capital of France" relevant to "capital of France"?</Text></QuestionContent>
    <AnswerSpecification><SelectionAnswer><StyleSuggestion>radiobutton</StyleSuggestion>
      <Selections><Selection><SelectionIdentifier>yes</SelectionIdentifier><Text>Yes</Text></Selection>
      <Selection><SelectionIdentifier>no</SelectionIdentifier><Text>No</Text></Selection></Selections>
    </SelectionAnswer></AnswerSpecification>
  </Question>
  <Question>
    <QuestionIdentifier>q2</QuestionIdentifier>
    <QuestionContent><FormattedContent><![CDATA[<p>Pick the <b>fruits</b></p>]]></FormattedContent></QuestionContent>
    <AnswerSpecification><SelectionAnswer><StyleSuggestion>checkbox</StyleSuggestion>
      <Selections><Selection><SelectionIdentifier>apple</SelectionIdentifier><Text>Apple</Text></Selection>
      <Selection><SelectionIdentifier>pear</SelectionIdentifier><Text>Pear</Text></Selection>
      <Selection><SelectionIdentifier>stone</SelectionIdentifier><Text>Stone</Text></Selection></Selections>
    </SelectionAnswer></AnswerSpecification>
  </Question>
  <Question>
    <QuestionIdentifier>comment</QuestionIdentifier><IsRequired>false</IsRequired>
    <QuestionContent><Text>Anything to add?</Text></QuestionContent>
    <AnswerSpecification><FreeTextAnswer><NumberOfLinesSuggestion>3</NumberOfLinesSuggestion></FreeTextAnswer></AnswerSpecification>
  </Question>
</QuestionForm>`;

const key = (mapping: string) => `<AnswerKey xmlns="${AK}">
  <Question><QuestionIdentifier>q1</QuestionIdentifier>
    <AnswerOption><SelectionIdentifier>yes</SelectionIdentifier><AnswerScore>5</AnswerScore></AnswerOption>
    <DefaultScore>-1</DefaultScore></Question>
  <Question><QuestionIdentifier>q2</QuestionIdentifier>
    <AnswerOption><SelectionIdentifier>apple</SelectionIdentifier><SelectionIdentifier>pear</SelectionIdentifier><AnswerScore>10</AnswerScore></AnswerOption>
    <AnswerOption><SelectionIdentifier>apple</SelectionIdentifier><AnswerScore>4</AnswerScore></AnswerOption></Question>
  ${mapping}
</AnswerKey>`;

const xmlCode = thrownError;

describe('HIT questions', () => {
  it('reads an HTMLQuestion', () => {
    const q = parseQuestion(
      '<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd"><HTMLContent><![CDATA[<!DOCTYPE html><form><input name="a"></form>]]></HTMLContent><FrameHeight>0</FrameHeight></HTMLQuestion>',
    );
    expect(q).toEqual({ kind: 'HTMLQuestion', html: '<!DOCTYPE html><form><input name="a"></form>', frameHeight: 0 });
  });

  it('reads an ExternalQuestion and insists on HTTPS except for localhost', () => {
    const ext = (url: string) =>
      `<ExternalQuestion xmlns="x"><ExternalURL>${url}</ExternalURL><FrameHeight>600</FrameHeight></ExternalQuestion>`;
    expect(parseQuestion(ext('https://example.org/task?x=1&amp;y=2'))).toEqual({
      kind: 'ExternalQuestion',
      url: 'https://example.org/task?x=1&y=2',
      frameHeight: 600,
    });
    expect(parseQuestion(ext('http://127.0.0.1:8080/hit'))).toMatchObject({ kind: 'ExternalQuestion' });
    expect(xmlCode(() => parseQuestion(ext('http://example.org/')))).toMatch(/^XMLParseError: .*HTTPS/);
  });

  it('reads a QuestionForm with selections and free text', () => {
    const q = parseQuestion(test);
    if (q.kind !== 'QuestionForm') throw new Error('expected a form');
    expect(q.form.overview.text).toEqual(['Answer both questions.']);
    expect(q.form.questions.map((x) => x.id)).toEqual(['q1', 'q2', 'comment']);
    expect(q.form.questions[0]!.answer).toMatchObject({
      kind: 'selection',
      minSelections: 1,
      maxSelections: 1,
      selections: [
        { id: 'yes', text: 'Yes' },
        { id: 'no', text: 'No' },
      ],
    });
    expect(q.form.questions[1]!.answer).toMatchObject({ kind: 'selection', maxSelections: 3 });
    expect(q.form.questions[1]!.formattedContent).toEqual(['<p>Pick the <b>fruits</b></p>']);
    expect(q.form.questions[2]).toMatchObject({ required: false, answer: { kind: 'freeText', lines: 3 } });
  });

  it('says where malformed XML breaks, and refuses DOCTYPE declarations', () => {
    expect(xmlCode(() => parseQuestion('<HTMLQuestion><HTMLContent>x</HTMLQuestion>'))).toMatch(/^XMLParseError: .*line 1, column \d+/);
    expect(xmlCode(() => parseQuestion('<!DOCTYPE x [<!ENTITY a "b">]><HTMLQuestion/>'))).toMatch(/DOCTYPE/);
    expect(xmlCode(() => parseQuestion('<Foo/>'))).toMatch(/root element must be HTMLQuestion, ExternalQuestion or QuestionForm, got Foo/);
    expect(xmlCode(() => parseQuestion('<HTMLQuestion><HTMLContent>x</HTMLContent></HTMLQuestion>'))).toMatch(/FrameHeight is required/);
    expect(
      xmlCode(() =>
        parseQuestion(`<HTMLQuestion><HTMLContent>${'x'.repeat(70_000)}</HTMLContent><FrameHeight>0</FrameHeight></HTMLQuestion>`),
      ),
    ).toMatch(/at most 65535 bytes/);
  });

  it('checks QuestionForm structure', () => {
    expect(xmlCode(() => parseTest(`<QuestionForm xmlns="${QF}"><Overview><Text>x</Text></Overview></QuestionForm>`))).toMatch(
      /at least one Question/,
    );
    expect(xmlCode(() => parseTest('<HTMLQuestion><HTMLContent>x</HTMLContent><FrameHeight>0</FrameHeight></HTMLQuestion>'))).toMatch(
      /must be a QuestionForm/,
    );
    const dup = test.replace('<QuestionIdentifier>q2</QuestionIdentifier>', '<QuestionIdentifier>q1</QuestionIdentifier>');
    expect(xmlCode(() => parseTest(dup))).toMatch(/"q1" is used twice/);
  });
});

describe('answer keys', () => {
  const form = parseTest(test);
  const answers = (q1: string[], q2: string[]) =>
    new Map([
      ['q1', q1],
      ['q2', q2],
    ]);

  it('sums exact-match scores, using the default score otherwise', () => {
    const k = parseAnswerKey(key(''));
    checkAnswerKeyAgainstTest(k, form);
    expect(scoreTest(k, answers(['yes'], ['pear', 'apple']))).toEqual({ summedScore: 15, value: 15 });
    expect(scoreTest(k, answers(['yes'], ['apple']))).toEqual({ summedScore: 9, value: 9 });
    // apple+pear+stone matches no option exactly: q2's default is 0
    expect(scoreTest(k, answers(['no'], ['apple', 'pear', 'stone']))).toEqual({ summedScore: -1, value: -1 });
    expect(scoreTest(k, new Map())).toEqual({ summedScore: -1, value: -1 });
  });

  it('maps to a percentage, rounded to the nearest integer', () => {
    const k = parseAnswerKey(
      key(
        '<QualificationValueMapping><PercentageMapping><MaximumSummedScore>15</MaximumSummedScore></PercentageMapping></QualificationValueMapping>',
      ),
    );
    expect(scoreTest(k, answers(['yes'], ['apple', 'pear'])).value).toBe(100);
    expect(scoreTest(k, answers(['yes'], ['apple'])).value).toBe(60);
    expect(scoreTest(k, answers(['no'], ['pear', 'apple'])).value).toBe(60); // 9/15
    expect(scoreTest(k, answers(['yes'], [])).value).toBe(33); // 5/15 = 33.3
  });

  it('maps by a scale multiplier', () => {
    const k = parseAnswerKey(
      key(
        '<QualificationValueMapping><ScaleMapping><SummedScoreMultiplier>2.5</SummedScoreMultiplier></ScaleMapping></QualificationValueMapping>',
      ),
    );
    expect(scoreTest(k, answers(['yes'], ['apple']))).toEqual({ summedScore: 9, value: 23 }); // 22.5 -> 23
  });

  it('maps by ranges, with an out-of-range value', () => {
    const k = parseAnswerKey(
      key(`<QualificationValueMapping><RangeMapping>
        <SummedScoreRange><InclusiveLowerBound>0</InclusiveLowerBound><InclusiveUpperBound>9</InclusiveUpperBound><QualificationValue>50</QualificationValue></SummedScoreRange>
        <SummedScoreRange><InclusiveLowerBound>10</InclusiveLowerBound><InclusiveUpperBound>15</InclusiveUpperBound><QualificationValue>100</QualificationValue></SummedScoreRange>
        <OutOfRangeQualificationValue>0</OutOfRangeQualificationValue></RangeMapping></QualificationValueMapping>`),
    );
    expect(k.mapping).toMatchObject({ kind: 'range', outOfRange: 0 });
    expect(scoreTest(k, answers(['yes'], ['apple', 'pear'])).value).toBe(100);
    expect(scoreTest(k, answers(['yes'], ['apple'])).value).toBe(50);
    expect(scoreTest(k, answers(['no'], [])).value).toBe(0); // -1: out of range
  });

  it('refuses keys that do not fit the test', () => {
    expect(xmlCode(() => checkAnswerKeyAgainstTest(parseAnswerKey(key('').replace('>q2<', '>q9<')), form))).toMatch(
      /"q9" is not in the Test/,
    );
    expect(xmlCode(() => checkAnswerKeyAgainstTest(parseAnswerKey(key('').replace('>pear<', '>plum<')), form))).toMatch(
      /"plum" is not among/,
    );
    expect(xmlCode(() => parseAnswerKey(key('').replace('<AnswerScore>5</AnswerScore>', '<AnswerScore>five</AnswerScore>')))).toMatch(
      /AnswerScore must be a whole number/,
    );
    expect(xmlCode(() => parseAnswerKey('<Answers/>'))).toMatch(/root element must be AnswerKey/);
  });
});

describe('QuestionFormAnswers', () => {
  it('writes one FreeText answer per form field, escaped, without assignmentId', () => {
    const xml = formAnswersXml({ assignmentId: 'A1', relevance: 'yes', note: 'a < b & "c" — é', tags: ['x', 'y'] });
    expect(xml).toBe(
      `<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="${QUESTION_FORM_ANSWERS_NS}">` +
        '<Answer><QuestionIdentifier>relevance</QuestionIdentifier><FreeText>yes</FreeText></Answer>' +
        '<Answer><QuestionIdentifier>note</QuestionIdentifier><FreeText>a &lt; b &amp; &quot;c&quot; &#8212; &#233;</FreeText></Answer>' +
        '<Answer><QuestionIdentifier>tags</QuestionIdentifier><FreeText>x|y</FreeText></Answer>' +
        '</QuestionFormAnswers>',
    );
    expect(parseAnswersXml(xml)).toEqual([
      { questionIdentifier: 'relevance', freeText: 'yes' },
      { questionIdentifier: 'note', freeText: 'a < b & "c" — é' },
      { questionIdentifier: 'tags', freeText: 'x|y' },
    ]);
  });

  it('writes selections for QuestionForm answers', () => {
    const xml = answersXml([
      { questionIdentifier: 'q2', selections: ['apple', 'pear'] },
      { questionIdentifier: 'comment', freeText: '' },
    ]);
    expect(parseAnswersXml(xml)).toEqual([
      { questionIdentifier: 'q2', selections: ['apple', 'pear'] },
      { questionIdentifier: 'comment', freeText: '' },
    ]);
  });

  it('drops characters XML cannot carry', () => {
    expect(escapeXml('a\u0001b\tc\u{1F600}')).toBe('ab\tc&#128512;');
  });
});
