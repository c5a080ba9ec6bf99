import { CreateQualificationTypeCommand, GetHITCommand, ListAssignmentsForHITCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { SYSTEM_QUALIFICATION_IDS } from '@qrelay/marketplace';
import type { SimulationProgress } from '../../src/simulation/index.js';
import { itemKeys } from '../marketplace/hit-pages.js';
import { hitParams, useMarketplace } from '../marketplace/support.js';
import { admin, basePopulation, createHits, runUntil } from './support.js';

/** The simulation's admin interface, and simulated workers meeting qualification requirements. */

const h = useMarketplace();

async function call(method: string, path: string, body?: unknown, token: string | null = h.running.adminToken) {
  const res = await fetch(`${h.running.url}/admin/simulation${path}`, {
    method,
    headers: {
      ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const TEST = `<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd">
  ${['q1', 'q2', 'q3', 'q4']
    .map(
      (id) => `<Question><QuestionIdentifier>${id}</QuestionIdentifier><QuestionContent><Text>${id}?</Text></QuestionContent>
    <AnswerSpecification><SelectionAnswer><Selections>
      <Selection><SelectionIdentifier>a</SelectionIdentifier><Text>A</Text></Selection>
      <Selection><SelectionIdentifier>b</SelectionIdentifier><Text>B</Text></Selection>
      <Selection><SelectionIdentifier>c</SelectionIdentifier><Text>C</Text></Selection>
    </Selections></SelectionAnswer></AnswerSpecification></Question>`,
    )
    .join('')}
</QuestionForm>`;
const KEY = `<AnswerKey xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd">
  ${['q1', 'q2', 'q3', 'q4'].map((id, i) => `<Question><QuestionIdentifier>${id}</QuestionIdentifier><AnswerOption><SelectionIdentifier>${'abca'[i]}</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>`).join('')}
  <QualificationValueMapping><PercentageMapping><MaximumSummedScore>4</MaximumSummedScore></PercentageMapping></QualificationValueMapping>
</AnswerKey>`;

describe('the simulation admin routes', () => {
  it('want the admin token, valid profiles and oracles, and a population before starting', async () => {
    expect((await call('GET', '', undefined, null)).status).toBe(401);
    expect((await call('GET', '', undefined, 'wrong')).status).toBe(403);
    expect(await call('GET', '')).toMatchObject({ status: 200, body: { state: 'empty', population: 0, oracleSize: 0 } });
    expect(await call('POST', '/start')).toMatchObject({
      status: 409,
      body: { detail: 'load a population first (PUT /admin/simulation/population)' },
    });
    const bad = await call('PUT', '/population', { ...basePopulation(), size: 0, shares: { spammer: 0.9, llm: 0.2 }, typo: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'body.size', message: expect.stringContaining('>=1') },
        { path: 'body.shares', message: 'the shares add up to more than 1' },
        { path: 'body', message: expect.stringContaining('typo') },
      ]),
    );
    const oracle = await call('PUT', '/oracle', { k1: { truth: 'maybe' } });
    expect(oracle).toMatchObject({ status: 400, body: { errors: [{ path: 'body.k1.truth', message: expect.any(String) }] } });
    expect((await call('PUT', '/oracle', { k1: { truth: 'yes' }, k2: { truth: 'no', model: 'yes' } })).body).toEqual({ size: 2 });
    expect((await call('PATCH', '/oracle', { k3: { truth: 'no' } })).body).toEqual({ size: 3 });
    expect((await call('PUT', '/oracle', { k4: { truth: 'no' } })).body).toEqual({ size: 1 });
    // larger than /admin's 100 kB bodies: a batch's oracle goes in one request
    const big = Object.fromEntries(itemKeys('big', 5000).map((k) => [k, { truth: 'yes', model: 'no' }]));
    expect(JSON.stringify(big).length).toBeGreaterThan(200_000);
    expect((await call('PUT', '/oracle', big)).body).toEqual({ size: 5000 });
    expect((await call('GET', '/nothing')).status).toBe(404);
    const loaded = await call('PUT', '/population', basePopulation({ seed: 'routes', size: 5, idPrefix: 'RT' }));
    expect(loaded.status).toBe(200);
    const workers = loaded.body.workers as { workerId: string; kind: string; profile: { locale: { Country: string } } }[];
    expect(workers).toHaveLength(5);
    expect(workers[0]).toMatchObject({
      workerId: expect.stringMatching(/^ART[A-Z0-9]{5}\d$/),
      kind: 'diligent',
      profile: { locale: { Country: 'US' } },
    });
    // loading the same population again updates the same accounts
    expect((await call('PUT', '/population', basePopulation({ seed: 'routes', size: 5, idPrefix: 'RT' }))).body.workers).toEqual(workers);
    expect((await h.running.workers.listWorkers()).filter((w) => w.workerId.startsWith('ART'))).toHaveLength(5);
  });
});

describe('simulated workers and qualifications', () => {
  it('take the qualification test a HIT asks for, and never take HITs their profile does not qualify for', async () => {
    const { QualificationType } = await h.client().send(
      new CreateQualificationTypeCommand({
        Name: 'Sim exam',
        Description: 'four questions',
        QualificationTypeStatus: 'Active',
        Test: TEST,
        AnswerKey: KEY,
        TestDurationInSeconds: 600,
      }),
    );
    const exam = QualificationType!.QualificationTypeId!;
    const keys = itemKeys('qual', 6);
    const examHits = await createHits(
      h.client(),
      keys.slice(0, 3),
      3,
      hitParams({
        MaxAssignments: 3,
        QualificationRequirements: [{ QualificationTypeId: exam, Comparator: 'GreaterThanOrEqualTo', IntegerValues: [75] }],
      }),
    );
    const [usOnly] = await createHits(
      h.client(),
      keys.slice(3),
      3,
      hitParams({
        MaxAssignments: 3,
        QualificationRequirements: [
          { QualificationTypeId: SYSTEM_QUALIFICATION_IDS.locale, Comparator: 'EqualTo', LocaleValues: [{ Country: 'US' }] },
        ],
      }),
    );
    await admin(
      h,
      'PUT',
      '/population',
      basePopulation({
        seed: 'exam',
        size: 3,
        idPrefix: 'EX',
        qualificationSkill: { alpha: 1000, beta: 0.01 },
        profile: { locales: [{ country: 'GB', share: 1 }] },
      }),
    );
    await admin(h, 'PUT', '/oracle', Object.fromEntries(keys.map((k) => [k, { truth: 'yes' }])));
    h.running.marketplace.clock.setSpeed(100_000);
    await admin(h, 'POST', '/start');
    const done = await runUntil(h, (p) => p.assignments.submitted >= 3);
    const stopped = await admin<SimulationProgress>(h, 'POST', '/stop');
    expect(done.qualificationTests).toEqual({ taken: 3, granted: 3, pending: 0 });
    expect(stopped.workers.visitsWithoutWork).toBeGreaterThan(0);
    const { Assignments = [] } = await h.client().send(new ListAssignmentsForHITCommand({ HITId: examHits[0]!.hitId }));
    expect(Assignments.map((a) => a.WorkerId).sort()).toEqual(
      (await admin<{ workers: { workerId: string }[] }>(h, 'GET', '/population')).workers.map((w) => w.workerId).sort(),
    );
    for (const w of Assignments) {
      const quals = await h.running.workers.listQualifications(w.WorkerId!);
      expect(quals.find((q) => q.qualificationTypeId === exam)).toMatchObject({ integerValue: 100 });
    }
    const { HIT } = await h.client().send(new GetHITCommand({ HITId: usOnly!.hitId }));
    expect(HIT).toMatchObject({ NumberOfAssignmentsAvailable: 3, NumberOfAssignmentsCompleted: 0, NumberOfAssignmentsPending: 0 });
  });
});
