import { describe, expect, it } from 'vitest';
import { overrideCall } from './override.js';

describe('overrideCall', () => {
  it('approves what is submitted, approves over a rejection, leaves an approval alone', () => {
    expect(overrideCall('approve', { platformStatus: 'Submitted', outcome: null, reviewState: 'pending' })).toBe('approve');
    expect(overrideCall('approve', { platformStatus: 'Submitted', outcome: 'rejected', reviewState: 'done' })).toBe(
      'approve-over-rejection',
    );
    expect(overrideCall('approve', { platformStatus: 'Approved', outcome: 'approved', reviewState: 'done' })).toBe('none');
    expect(overrideCall('approve', { platformStatus: 'Approved', outcome: 'auto-approved', reviewState: 'done' })).toBe('none');
  });
  it('rejects only what is still submitted: an approval cannot be taken back', () => {
    expect(overrideCall('reject', { platformStatus: 'Submitted', outcome: null, reviewState: 'decided' })).toBe('reject');
    expect(overrideCall('reject', { platformStatus: 'Approved', outcome: 'approved', reviewState: 'done' })).toBe('none');
    expect(overrideCall('reject', { platformStatus: 'Rejected', outcome: 'rejected', reviewState: 'done' })).toBe('none');
  });
});
