import { describe, expect, it } from 'vitest';
import { parseQuestion } from '../domain/question-xml.js';
import type { HitSummary } from '../workers.js';
import { dollars, duration, relative, when } from './format.js';
import { groupHits, requirementText } from './hit-groups.js';
import { questionFormView } from './question-form-view.js';
import { sanitizeFormattedContent } from './sanitize.js';

describe('FormattedContent sanitising', () => {
  it('keeps harmless markup without attributes and drops what can run or load', () => {
    expect(sanitizeFormattedContent('<p class="x" style="color:red" onclick="f()">Hi <b>there</b><br/>you</p>')).toBe(
      '<p>Hi <b>there</b><br>you</p>',
    );
    expect(
      sanitizeFormattedContent('<script>alert(1)</script><style>p{}</style><iframe src="x"></iframe><img src=x onerror=alert(2)>ok'),
    ).toBe('ok');
    expect(sanitizeFormattedContent('<a href="javascript:alert(1)">click</a> <svg onload=alert(1)><circle/></svg>')).toBe('click ');
    expect(sanitizeFormattedContent('<table><tr><td colspan="2" rowspan="x">a</td><th rowspan="3">b</th></tr></table>')).toBe(
      '<table><tbody><tr><td colspan="2">a</td><th rowspan="3">b</th></tr></tbody></table>',
    );
    expect(sanitizeFormattedContent('<blink>5 &lt; 6 &amp; "q"</blink><!-- c -->')).toBe('5 &lt; 6 &amp; &quot;q&quot;');
    expect(sanitizeFormattedContent('<ul><li>one<li>two</ul>')).toBe('<ul><li>one</li><li>two</li></ul>');
  });
});

const FORM = `<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd">
<Overview><Title>T</Title><Text>first</Text><List><ListItem>a</ListItem><ListItem>b &amp; c</ListItem></List><Text>second</Text></Overview>
<Question><QuestionIdentifier>pick</QuestionIdentifier><DisplayName>Pick</DisplayName><IsRequired>false</IsRequired>
<QuestionContent><FormattedContent><![CDATA[<i>look</i><script>x()</script>]]></FormattedContent><Text>then</Text><Application><JavaApplet/></Application></QuestionContent>
<AnswerSpecification><SelectionAnswer><StyleSuggestion>checkbox</StyleSuggestion><Selections>
<Selection><SelectionIdentifier>s1</SelectionIdentifier><Text>One</Text></Selection>
<Selection><SelectionIdentifier>s2</SelectionIdentifier><Text>Two</Text></Selection></Selections></SelectionAnswer></AnswerSpecification></Question>
<Question><QuestionIdentifier>menu</QuestionIdentifier><QuestionContent><Text>choose</Text></QuestionContent>
<AnswerSpecification><SelectionAnswer><StyleSuggestion>dropdown</StyleSuggestion><Selections>
<Selection><SelectionIdentifier>m1</SelectionIdentifier><Text>M</Text></Selection></Selections></SelectionAnswer></AnswerSpecification></Question>
<Question><QuestionIdentifier>free</QuestionIdentifier><QuestionContent><Text>say</Text></QuestionContent>
<AnswerSpecification><FreeTextAnswer><DefaultText>dflt</DefaultText><NumberOfLinesSuggestion>99</NumberOfLinesSuggestion></FreeTextAnswer></AnswerSpecification></Question>
</QuestionForm>`;

describe('QuestionForm view', () => {
  it('keeps the content in document order and describes each answer', () => {
    const q = parseQuestion(FORM);
    if (q.kind !== 'QuestionForm') throw new Error('not a form');
    const view = questionFormView(FORM, q.form, (id, i) => `f${i}.${id}`);
    expect(view.overview).toEqual([
      { kind: 'title', text: 'T' },
      { kind: 'text', text: 'first' },
      { kind: 'list', items: ['a', 'b & c'] },
      { kind: 'text', text: 'second' },
    ]);
    expect(view.questions.map((x) => [x.field, x.displayName, x.required])).toEqual([
      ['f0.pick', 'Pick', false],
      ['f1.menu', undefined, true],
      ['f2.free', undefined, true],
    ]);
    expect(view.questions[0]!.content).toEqual([
      { kind: 'formatted', html: '<i>look</i>' },
      { kind: 'text', text: 'then' },
      { kind: 'omitted', what: 'Application' },
    ]);
    expect(view.questions[0]!.answer).toEqual({
      kind: 'selection',
      multiple: true,
      dropdown: false,
      options: [
        { id: 's1', text: 'One', inputId: 'q1-1' },
        { id: 's2', text: 'Two', inputId: 'q1-2' },
      ],
    });
    expect(view.questions[1]!.answer).toMatchObject({ kind: 'selection', multiple: false, dropdown: true });
    expect(view.questions[2]!.answer).toEqual({ kind: 'freeText', lines: 20, defaultText: 'dflt' });
  });
});

const summary = (over: Partial<HitSummary>): HitSummary => ({
  hitId: 'H1',
  hitTypeId: 'T1',
  hitGroupId: 'G1',
  title: 'Judge',
  description: 'd',
  reward: '0.55',
  rewardCents: 55,
  assignmentDurationSeconds: 900,
  autoApprovalDelaySeconds: 3600,
  creationTime: new Date(0),
  expiration: new Date(7_200_000),
  status: 'Assignable',
  availableAssignments: 3,
  canPreview: true,
  canAccept: true,
  unmetRequirements: [],
  ...over,
});

describe('the HIT list', () => {
  it('groups HITs by HIT type with totals, the earliest expiry and the unmet requirements', () => {
    const exam = {
      qualificationTypeId: 'Q1',
      name: 'Exam',
      comparator: 'GreaterThanOrEqualTo' as const,
      integerValues: [90],
      actionsGuarded: 'Accept' as const,
      requestable: true,
    };
    const groups = groupHits(
      [
        summary({ hitId: 'H1', expiration: new Date(7_200_000) }),
        summary({ hitId: 'H2', hitGroupId: 'G2', title: 'Other', canAccept: false, unmetRequirements: [exam] }),
        summary({ hitId: 'H3', availableAssignments: 1, expiration: new Date(3_600_000) }),
      ],
      new Date(0),
    );
    expect(groups.map((g) => [g.groupId, g.hitCount, g.assignmentsAvailable, g.expires, g.canAcceptAny, g.unmet, g.requestable])).toEqual([
      ['G1', 2, 4, 'in 1 hour', true, [], false],
      ['G2', 1, 3, 'in 2 hours', false, ['Exam at least 90'], true],
    ]);
    expect(groups[0]).toMatchObject({ reward: '$0.55', timeAllotted: '15 minutes' });
    expect(
      requirementText({
        ...exam,
        name: 'Worker_Locale',
        comparator: 'In',
        integerValues: undefined,
        localeValues: [{ Country: 'US', Subdivision: 'WA' }, { Country: 'GB' }],
      } as never),
    ).toBe('Worker_Locale one of US-WA, GB');
    expect(requirementText({ ...exam, name: 'Masters', comparator: 'Exists', integerValues: undefined })).toBe('Masters held');
  });

  it('writes amounts and times for people', () => {
    expect([dollars(0), dollars(5), dollars(1234), dollars(-60)]).toEqual(['$0.00', '$0.05', '$12.34', '-$0.60']);
    expect([duration(0), duration(59), duration(61), duration(3600), duration(90_061), duration(86_400 * 7)]).toEqual([
      '0 seconds',
      '59 seconds',
      '1 minute 1 second',
      '1 hour',
      '1 day 1 hour',
      '7 days',
    ]);
    expect(relative(new Date(0), new Date(120_000))).toBe('2 minutes ago');
    expect(when(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe('2026-01-02 03:04 UTC');
  });
});
