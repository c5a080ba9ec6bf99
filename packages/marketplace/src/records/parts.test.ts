import { describe, expect, it } from 'vitest';
import { splitRecords } from './parts.js';
import { RECORDS_FORMAT, type RequesterRecords } from './schema.js';
import { mapRecordTimes, recordTimeSpan } from './times.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

function hit(id: string, xmlChars: number) {
  return {
    hit: {
      _id: id,
      typeId: 'T',
      groupId: 'G',
      creationTime: at(1),
      props: {
        title: 't',
        description: 'd',
        reward: '0.10',
        rewardCents: 10,
        assignmentDurationSeconds: 60,
        autoApprovalDelaySeconds: 60,
        qualificationRequirements: [],
      },
      maxAssignments: 1,
      expiration: at(9),
      reviewing: false,
      disposed: false,
      expiredNoticed: false,
      reviewableNoticed: false,
      nextSeq: 1,
      eventSeq: 0,
      assignments: [],
      pendingEvents: [],
      version: 1,
    },
    question: { _id: id, xml: 'x'.repeat(xmlChars) },
    answer: { _id: `${id}000001`, xml: '<a/>', hitId: id },
  };
}

function records(n: number, xmlChars: number): RequesterRecords {
  const hits = Array.from({ length: n }, (_, i) => hit(`H${String(i).padStart(29, '0')}`, xmlChars));
  return {
    format: RECORDS_FORMAT,
    exportedAt: at(5),
    qualificationTypes: [],
    qualificationTests: [],
    workers: [
      {
        _id: 'AW1',
        displayName: 'w',
        profile: { locale: { Country: 'US' }, adult: true, masters: false, baseline: { submitted: 0, approved: 0 } },
        createdAt: at(0),
      },
    ],
    workerQualifications: [],
    qualificationRequests: [],
    qualificationAttempts: [],
    blocks: [],
    messages: [],
    hitTypes: [],
    hits: hits.map((h) => h.hit),
    questions: hits.map((h) => h.question),
    answers: hits.map((h) => h.answer),
    ledger: [],
    requestTokens: [{ _id: 'CreateHIT:t1', target: hits[0]!.hit._id, at: at(1) }],
  };
}

describe('splitRecords', () => {
  it('puts the account first, HITs with their question and answers in parts under the size, the tokens last', () => {
    const parts = splitRecords(records(10, 1000), 3500);
    expect(parts[0]!.workers).toHaveLength(1);
    expect(parts[0]!.hits).toHaveLength(0);
    const hitParts = parts.slice(1, -1);
    expect(hitParts.length).toBeGreaterThan(2);
    for (const p of hitParts) {
      expect(p.hits.length).toBeGreaterThan(0);
      expect(p.questions.map((q) => q._id)).toEqual(p.hits.map((h) => h._id));
      expect(p.answers.map((a) => a.hitId)).toEqual(p.hits.map((h) => h._id));
    }
    expect(hitParts.flatMap((p) => p.hits).map((h) => h._id)).toEqual(records(10, 1000).hits.map((h) => h._id));
    expect(parts.at(-1)!.requestTokens).toHaveLength(1);
    expect(parts.at(-1)!.hits).toHaveLength(0);
  });

  it('gives a HIT larger than the size a part of its own', () => {
    const parts = splitRecords(records(2, 10_000), 3500);
    expect(parts.map((p) => p.hits.length)).toEqual([0, 1, 1, 0]);
  });
});

describe('record times', () => {
  it('finds the span and maps every time, nested ones included', () => {
    const r = records(1, 10);
    expect(recordTimeSpan(r)).toEqual({ earliest: at(0), latest: at(9) });
    const moved = mapRecordTimes(r, (d) => new Date(d.getTime() + 1000));
    expect(moved.hits[0]!.expiration).toEqual(at(10));
    expect(moved.workers[0]!.createdAt).toEqual(at(1));
    expect(moved.exportedAt).toEqual(at(6));
    expect(r.hits[0]!.expiration).toEqual(at(9));
  });
});
