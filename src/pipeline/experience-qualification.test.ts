import { describe, expect, it } from 'vitest';
import { experienceGrants, experienceRequirement, submittedHits } from './experience-qualification.js';

describe('qrelay-experience', () => {
  it('starter HITs require it not to exist, regular HITs require it', () => {
    expect(experienceRequirement('Q', 'starter')).toEqual({ qualificationTypeId: 'Q', comparator: 'DoesNotExist' });
    expect(experienceRequirement('Q', 'regular')).toEqual({ qualificationTypeId: 'Q', comparator: 'Exists' });
  });

  it('counts the HITs each worker submitted', () => {
    expect([...submittedHits([{ workerId: 'B' }, { workerId: 'A' }, { workerId: 'B' }])]).toEqual([
      ['B', 2],
      ['A', 1],
    ]);
  });

  it('grants it from the starterHits-th HIT on, raises a lower value, leaves the rest alone', () => {
    const submitted = new Map([
      ['new', 1],
      ['done', 2],
      ['more', 5],
      ['same', 3],
    ]);
    const held = new Map([
      ['more', 2],
      ['same', 3],
      ['elsewhere', 7],
    ]);
    expect(experienceGrants(submitted, held, 2)).toEqual([
      { workerId: 'done', value: 2 },
      { workerId: 'more', value: 5 },
    ]);
    expect(experienceGrants(submitted, new Map(), 6)).toEqual([]);
    // a worker holding a higher value from another batch keeps it
    expect(experienceGrants(new Map([['elsewhere', 3]]), held, 2)).toEqual([]);
  });
});
