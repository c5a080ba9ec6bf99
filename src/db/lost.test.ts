import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { lostDatabaseError, lostDatabaseMessage } from './lost.js';

const named = (name: string, message: string, cause?: unknown) => Object.assign(new Error(message, { cause }), { name });

describe('a database lost under a command', () => {
  it('is recognised by the driver error name, or a wrapped network failure, in the error or its causes', () => {
    expect(lostDatabaseError(named('MongoNetworkError', 'connection 3 to 127.0.0.1:27017 closed'))?.name).toBe('MongoNetworkError');
    expect(lostDatabaseError(named('MongoServerSelectionError', 'connect ECONNREFUSED 127.0.0.1:27017'))?.name).toBe(
      'MongoServerSelectionError',
    );
    expect(lostDatabaseError(named('MongoBulkWriteError', 'connection 9 to 127.0.0.1:39301 closed'))?.name).toBe('MongoBulkWriteError');
    expect(lostDatabaseError(new Error('step failed', { cause: named('MongoPoolClearedError', 'pool cleared') }))?.name).toBe(
      'MongoPoolClearedError',
    );
  });

  it('is not any other error: a write conflict, a bad value, a network word outside the driver', () => {
    expect(lostDatabaseError(named('MongoBulkWriteError', 'E11000 duplicate key error'))).toBeUndefined();
    expect(lostDatabaseError(new UserError('batch x does not exist'))).toBeUndefined();
    expect(lostDatabaseError(new Error('fetch failed: ECONNREFUSED'))).toBeUndefined();
    expect(lostDatabaseError('a string')).toBeUndefined();
  });

  it('says what happened and that running the command again is safe, in one line', () => {
    const line = lostDatabaseMessage(named('MongoNetworkError', 'connection 3 to 127.0.0.1:27017 closed\nmore'));
    expect(line).not.toContain('\n');
    expect(line).toMatch(
      /^the database stopped answering in the middle of the command \(MongoNetworkError: connection 3 to 127\.0\.0\.1:27017 closed\)\./,
    );
    expect(line).toMatch(/run the same command again: that is safe/);
  });
});
