import { describe, expect, it } from 'vitest';
import { assignmentIdFor, hashId, hitIdOfAssignment, newEntityId, newWorkerId } from './ids.js';

describe('marketplace ids', () => {
  it('makes 30-character entity ids ordered by time', () => {
    const a = newEntityId(1_700_000_000_000);
    const b = newEntityId(1_700_000_000_001);
    expect(a).toMatch(/^[A-Z0-9]{30}$/);
    expect(a < b).toBe(true);
    expect(newEntityId(5) < newEntityId(1_700_000_000_000)).toBe(true);
  });

  it('derives assignment ids from their HIT and back', () => {
    const hit = newEntityId();
    const id = assignmentIdFor(hit, 37);
    expect(id).toMatch(/^[A-Z0-9]+$/);
    expect(id).toHaveLength(36);
    expect(hitIdOfAssignment(id)).toBe(hit);
    expect(assignmentIdFor(hit, 2) < assignmentIdFor(hit, 10)).toBe(true);
    expect(hitIdOfAssignment('SHORT')).toBeUndefined();
    expect(hitIdOfAssignment(`${hit}00000a`)).toBeUndefined();
  });

  it('makes worker ids like MTurk', () => {
    expect(newWorkerId()).toMatch(/^A[A-Z0-9]{13}$/);
  });

  it('hashes text to stable ids', () => {
    expect(hashId('x')).toBe(hashId('x'));
    expect(hashId('x')).not.toBe(hashId('y'));
    expect(hashId('x', 12)).toMatch(/^[A-Z0-9]{12}$/);
  });
});
