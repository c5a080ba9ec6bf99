import { describe, expect, it } from 'vitest';
import { loadPreset, parsePreset } from './presets.js';

/** The presets' `minReputation` (cross-batch reputation, src/pipeline/reputation.ts). */

const base = {
  title: 'Judge passages',
  description: 'Decide whether a chunk supports an answer.',
  reward: '1.00',
  assignmentDurationSeconds: 1800,
  lifetimeSeconds: 86400,
  autoApprovalDelaySeconds: 86400,
};
const parse = (over: Record<string, unknown>) => parsePreset(JSON.stringify({ ...base, ...over }), 'hits/test.json');
const requirement = { id: '000000000000000000L0', comparator: 'GreaterThan', values: [90] };

describe('preset minReputation', () => {
  it('is optional, an integer from 0 to 100', () => {
    expect(parse({}).minReputation).toBeUndefined();
    expect(parse({ minReputation: 0 }).minReputation).toBe(0);
    expect(parse({ minReputation: 100 }).minReputation).toBe(100);
    expect(() => parse({ minReputation: 101 })).toThrow(/^hits\/test\.json: minReputation: .*100/);
    expect(() => parse({ minReputation: -1 })).toThrow(/^hits\/test\.json: minReputation: /);
    expect(() => parse({ minReputation: 30.5 })).toThrow(/^hits\/test\.json: minReputation: expected a whole number from 0 to 100/);
  });

  it("takes one of MTurk's 10 requirements", () => {
    expect(parse({ minReputation: 30, qualificationRequirements: Array(9).fill(requirement) }).minReputation).toBe(30);
    expect(() => parse({ minReputation: 30, qualificationRequirements: Array(10).fill(requirement) })).toThrow(
      /^hits\/test\.json: minReputation: needs one of MTurk's 10 qualification requirements and qualificationRequirements uses them all: drop one$/,
    );
  });

  it('is not set by the built-in presets: a lab starts neutral', () => {
    for (const name of ['dream', 'lab', 'quick']) expect(loadPreset(name).minReputation, name).toBeUndefined();
  });
});
