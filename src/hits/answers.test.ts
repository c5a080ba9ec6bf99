import { describe, expect, it } from 'vitest';
import { formAnswersXml } from '@qrelay/marketplace';
import {
  AnswerFormatError,
  assertComplete,
  canonicalAnswerFields,
  parseAnswerFields,
  parseAssignmentAnswer,
  readAnswerFields,
} from './answers.js';
import type { PlannedItem } from './plan-schema.js';

const NS = 'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd';
const answerXml = (fields: Array<[string, string]>, raw = false) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<QuestionFormAnswers xmlns="${NS}">\n` +
  fields
    .map(
      ([k, v]) =>
        `<Answer>\n<QuestionIdentifier>${k}</QuestionIdentifier>\n<FreeText>${raw ? v : v.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</FreeText>\n</Answer>`,
    )
    .join('\n') +
  '\n</QuestionFormAnswers>';

const noEvents = { copies: 0, pastes: 0, focusLosses: 0 };
const items: PlannedItem[] = [
  { kind: 'real', position: 1, key: 'aaaaaaaaaaaaaaaa', queryId: 'q1', chunkId: 'c1', dataset: 'd' },
  { kind: 'check', position: 2, key: 'bbbbbbbbbbbbbbbb', queryId: 'g1', chunkId: 'gc1', dataset: 'd', expected: 'no' },
  { kind: 'real', position: 3, key: 'cccccccccccccccc', queryId: 'q2', chunkId: 'c2', dataset: 'd' },
];

describe('parseAssignmentAnswer', () => {
  it('maps the submitted fields back to the planned items', () => {
    const xml = answerXml([
      ['assignmentId', 'ASSIGN1'],
      ['item1_answer', 'yes'],
      ['item1_comment', 'clear case'],
      ['item1_ms', '12345'],
      ['item2_answer', 'no'],
      ['item2_difficult', 'yes'],
      ['item2_comment', ''],
      ['item2_ms', '800'],
      ['item2_copies', '2'],
      ['item2_pastes', '1'],
      ['item2_focus_losses', '3'],
      ['item3_answer', 'NO'],
      ['item3_ms', '0'],
      ['item3_copies', 'lots'],
    ]);
    expect(parseAssignmentAnswer(xml, items)).toEqual({
      items: [
        {
          position: 1,
          key: 'aaaaaaaaaaaaaaaa',
          kind: 'real',
          answer: 'yes',
          difficult: false,
          comment: 'clear case',
          ms: 12345,
          ...noEvents,
        },
        {
          position: 2,
          key: 'bbbbbbbbbbbbbbbb',
          kind: 'check',
          answer: 'no',
          difficult: true,
          comment: '',
          ms: 800,
          copies: 2,
          pastes: 1,
          focusLosses: 3,
        },
        // a count that is not a whole number reads as none
        { position: 3, key: 'cccccccccccccccc', kind: 'real', answer: 'no', difficult: false, comment: '', ms: 0, ...noEvents },
      ],
      missing: [],
      unknownFields: [],
    });
  });

  it('decodes entities, character references and CDATA in comments', () => {
    const xml = answerXml(
      [
        ['item1_answer', 'yes'],
        ['item1_comment', 'a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; caf&#233; &#x4E2D; &amp;lt; &nbsp;'],
        ['item2_answer', 'no'],
        ['item2_comment', '<![CDATA[raw <tags> & ]]]]><![CDATA[> kept]]>'],
        ['item3_answer', 'yes'],
      ],
      true,
    );
    const parsed = parseAssignmentAnswer(xml, items);
    expect(parsed.items[0]?.comment).toBe('a <b> & "c" \'d\' café 中 &lt; &nbsp;');
    expect(parsed.items[1]?.comment).toBe('raw <tags> & ]]> kept');
  });

  it('reports unanswered items instead of guessing, and keeps going', () => {
    const parsed = parseAssignmentAnswer(
      answerXml([
        ['item1_answer', 'yes'],
        ['item3_answer', ''],
      ]),
      items,
    );
    expect(parsed.missing).toEqual([2, 3]);
    expect(parsed.items[1]).toEqual({
      position: 2,
      key: 'bbbbbbbbbbbbbbbb',
      kind: 'check',
      answer: null,
      difficult: false,
      comment: '',
      ms: null,
      ...noEvents,
    });
    expect(() => assertComplete(parsed, 'assignment A1')).toThrow(
      'assignment A1 is incomplete: no answer for 2 of 3 items (item2_answer, item3_answer)',
    );
    expect(() =>
      assertComplete(
        parseAssignmentAnswer(
          answerXml([
            ['item1_answer', 'yes'],
            ['item2_answer', 'yes'],
            ['item3_answer', 'no'],
          ]),
          items,
        ),
      ),
    ).not.toThrow();
  });

  it('reads a timer that is not a whole number as unknown', () => {
    const parsed = parseAssignmentAnswer(
      answerXml([
        ['item1_ms', '-5'],
        ['item2_ms', '1.5'],
        ['item3_ms', 'soon'],
      ]),
      items,
    );
    expect(parsed.items.map((i) => i.ms)).toEqual([null, null, null]);
  });

  it('lists fields the page does not define, and refuses answers for positions the HIT lacks', () => {
    expect(
      parseAssignmentAnswer(
        answerXml([
          ['item1_answer', 'yes'],
          ['extra', 'x'],
        ]),
        items,
      ).unknownFields,
    ).toEqual(['extra']);
    expect(() => parseAssignmentAnswer(answerXml([['item4_answer', 'yes']]), items)).toThrow(/item4_answer.*positions 1\.\.3/);
  });

  it('refuses an answer other than yes or no, naming the field', () => {
    expect(() => parseAssignmentAnswer(answerXml([['item2_answer', 'maybe']]), items)).toThrow(
      'assignment answer: item2_answer must be "yes" or "no", got "maybe"',
    );
  });

  it('reads the crowd-form taskAnswers JSON field', () => {
    const taskAnswers = JSON.stringify([
      {
        item1_answer: 'yes',
        item1_comment: 'ok <fine>',
        item1_ms: 4200,
        'item2_answer.no': { on: true },
        'item2_answer.yes': { on: false },
        item2_difficult: { on: true },
        item3_answer: { yes: false, no: true },
        item3_difficult: false,
      },
    ]);
    const parsed = parseAssignmentAnswer(answerXml([['taskAnswers', taskAnswers]]), items);
    expect(parsed.items.map((i) => [i.answer, i.difficult, i.comment, i.ms])).toEqual([
      ['yes', false, 'ok <fine>', 4200],
      ['no', true, '', null],
      ['no', false, '', null],
    ]);
    expect(parseAnswerFields(answerXml([['taskAnswers', '[{"item1_answer":{"label":"no"}}]']])).get('item1_answer')).toBe('no');
    expect(() => parseAnswerFields(answerXml([['taskAnswers', '{not json']]))).toThrow(/taskAnswers is not JSON/);
    expect(() => parseAnswerFields(answerXml([['taskAnswers', '[1]']]))).toThrow(/one object of fields/);
  });

  it('reads QuestionForm selections too', () => {
    const xml = `<QuestionFormAnswers xmlns="${NS}"><Answer><QuestionIdentifier>rel01</QuestionIdentifier><SelectionIdentifier>yes</SelectionIdentifier></Answer></QuestionFormAnswers>`;
    expect(parseAnswerFields(xml).get('rel01')).toBe('yes');
  });
});

describe('malformed answers', () => {
  it.each([
    ['not XML at all', /not well-formed XML/],
    [
      `<QuestionFormAnswers xmlns="${NS}"><Answer><QuestionIdentifier>a</QuestionIdentifier></QuestionFormAnswers>`,
      /not well-formed XML: line 1, column \d+/,
    ],
    ['<Other/>', /must be a QuestionFormAnswers document, found <Other>/],
    [`<QuestionFormAnswers><Answer><FreeText>x</FreeText></Answer></QuestionFormAnswers>`, /<Answer> number 1 has no QuestionIdentifier/],
    [
      answerXml([
        ['item1_answer', 'yes'],
        ['item1_answer', 'no'],
      ]),
      /field "item1_answer" appears twice/,
    ],
    ['<!DOCTYPE x [<!ENTITY a "b">]><QuestionFormAnswers/>', /must not contain a DOCTYPE/],
  ])('%#: a clear AnswerFormatError', (xml, message) => {
    expect(() => parseAssignmentAnswer(xml, items)).toThrow(AnswerFormatError);
    expect(() => parseAssignmentAnswer(xml, items)).toThrow(message);
  });

  it('accepts an empty submission as all missing', () => {
    expect(parseAssignmentAnswer(`<QuestionFormAnswers xmlns="${NS}"/>`, items).missing).toEqual([1, 2, 3]);
  });
});

describe('canonicalAnswerFields', () => {
  // a small seeded generator, so that a failure replays
  const rng = (seed: number) => () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const ALPHABET = [
    'a',
    'B',
    '7',
    ' ',
    '\t',
    '\n',
    '\r',
    '&',
    '<',
    '>',
    '"',
    "'",
    ']]>',
    'é',
    '–',
    '😀',
    '\u0001',
    '.',
    '|',
    'item3-answer',
  ];
  const word = (r: () => number, max: number) =>
    Array.from({ length: Math.floor(r() * max) }, () => ALPHABET[Math.floor(r() * ALPHABET.length)]).join('');
  const variants: ((xml: string) => string)[] = [
    (x) => x,
    (x) => x.replace('<Answer>', '\n<Answer>'),
    (x) => x.replace('<FreeText>', '<FreeText><![CDATA[').replace('</FreeText>', ']]></FreeText>'),
    (x) => x.replace('</Answer>', '<!-- c --></Answer>'),
    (x) => x.replace('<FreeText>', '<q:FreeText xmlns:q="x">').replace('</FreeText>', '</q:FreeText>'),
    (x) => x.replace(/<FreeText>[^<]*<\/FreeText>/, '<FreeText/>'),
    (x) => x.replace('<FreeText>', '<FreeText>&#1;'),
    (x) => x.replace('<FreeText>', '<FreeText>&#233;&#x1F600;'),
    (x) => x.replace('encoding="ASCII"', 'encoding="UTF-8"'),
    (x) => x.replace(/<QuestionIdentifier>[^<]*</, '<QuestionIdentifier> <'),
    (x) => x + '\n',
  ];
  const full = (xml: string) => {
    try {
      return readAnswerFields(xml);
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('reads every document it accepts as the XML parser does, and the marketplace writes canonical ones', () => {
    const r = rng(38);
    let read = 0;
    for (let i = 0; i < 3000; i++) {
      const fields: Record<string, string> = {};
      const n = 1 + Math.floor(r() * 8);
      for (let f = 0; f < n; f++) fields[`item${f + 1}-${word(r, 3)}x`] = word(r, 12);
      const canonical = formAnswersXml(fields);
      // a carriage return (a textarea's line break) is left to the parser, which reads CR LF as XML does
      if (!Object.entries(fields).flat().join('').includes('\r'))
        expect(canonicalAnswerFields(canonical)).toEqual(readAnswerFields(canonical));
      const xml = variants[i % variants.length]!(canonical);
      const fast = canonicalAnswerFields(xml);
      if (fast === undefined) continue;
      read++;
      expect(fast, xml).toEqual(full(xml));
    }
    expect(read).toBeGreaterThan(200);
  });

  it('leaves to the parser what is not canonical: whitespace, CDATA, a self-closing FreeText, selections, a field twice', () => {
    const head = `<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="${NS}">`;
    const doc = (answers: string) => `${head}${answers}</QuestionFormAnswers>`;
    expect(canonicalAnswerFields(doc('<Answer><QuestionIdentifier>a</QuestionIdentifier><FreeText>x &amp; y</FreeText></Answer>'))).toEqual(
      new Map([['a', 'x & y']]),
    );
    expect(canonicalAnswerFields(doc('<Answer><QuestionIdentifier>a</QuestionIdentifier></Answer>'))).toEqual(new Map([['a', '']]));
    for (const odd of [
      '<Answer>\n<QuestionIdentifier>a</QuestionIdentifier></Answer>',
      '<Answer><QuestionIdentifier>a</QuestionIdentifier><FreeText><![CDATA[x]]></FreeText></Answer>',
      '<Answer><QuestionIdentifier>a</QuestionIdentifier><FreeText/></Answer>',
      '<Answer><QuestionIdentifier>a</QuestionIdentifier><SelectionIdentifier>s</SelectionIdentifier></Answer>',
      '<Answer><QuestionIdentifier>a</QuestionIdentifier></Answer><Answer><QuestionIdentifier>a</QuestionIdentifier></Answer>',
      '<Answer><QuestionIdentifier> </QuestionIdentifier></Answer>',
      '<Answer><QuestionIdentifier>a</QuestionIdentifier><FreeText>a\r\nb</FreeText></Answer>',
      '<Answer><QuestionIdentifier>a</QuestionIdentifier><FreeText>&#0;</FreeText></Answer>',
    ])
      expect(canonicalAnswerFields(doc(odd)), odd).toBeUndefined();
    // a field named twice is the parser's error, as before
    expect(() =>
      parseAnswerFields(
        doc('<Answer><QuestionIdentifier>a</QuestionIdentifier></Answer><Answer><QuestionIdentifier>a</QuestionIdentifier></Answer>'),
      ),
    ).toThrow(/appears twice/);
  });
});
