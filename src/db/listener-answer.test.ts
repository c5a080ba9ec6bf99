import { describe, expect, it } from 'vitest';
import { describeListenerAnswer, devdbAddressMessage } from './listener-answer.js';

const answer = (text: string, closed = true) => ({ bytes: Buffer.from(text, 'latin1'), closed });

describe('describeListenerAnswer', () => {
  it('names an HTTP server by its status line', () => {
    expect(describeListenerAnswer(answer('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'))).toBe(
      'an HTTP server answers there ("HTTP/1.1 404 Not Found")',
    );
  });

  it('quotes a greeting, with control characters replaced and long lines cut', () => {
    expect(describeListenerAnswer(answer('SSH-2.0-OpenSSH_9.6\x1b[31m\r\n', false))).toBe(
      'a program answers there with "SSH-2.0-OpenSSH_9.6?[31m"',
    );
    expect(describeListenerAnswer(answer(`220 ${'x'.repeat(100)}`))).toBe(`a program answers there with "220 ${'x'.repeat(56)}…"`);
  });

  it('tells a binary protocol, a silent program and one that hangs up apart', () => {
    expect(describeListenerAnswer({ bytes: Buffer.from([0, 1, 2, 200, 201, 3]), closed: true })).toBe(
      "a program answers there in a binary protocol other than MongoDB's (6 bytes)",
    );
    expect(describeListenerAnswer(answer('', true))).toBe('a program there closes connections without answering');
    expect(describeListenerAnswer(answer('', false))).toBe('a program there accepts connections but does not answer');
  });

  it('does not call MongoDB answering HTTP a non-database', () => {
    expect(describeListenerAnswer(answer('HTTP/1.0 200 OK\r\n\r\nIt looks like you are trying to access MongoDB over HTTP'))).toBeNull();
  });
});

describe('devdbAddressMessage', () => {
  it('names QRELAY_DEVDB_ADDRESS, what answers there and what to do', () => {
    expect(devdbAddressMessage('127.0.0.1:27330', answer('HTTP/1.1 400 Bad Request\r\n'), 'Server selection timed out')).toBe(
      'QRELAY_DEVDB_ADDRESS 127.0.0.1:27330 (MONGODB_URI is unset) is not a database: an HTTP server answers there ("HTTP/1.1 400 Bad Request"); stop what answers there, or set QRELAY_DEVDB_ADDRESS to a free host:port for the dev database (or MONGODB_URI to a MongoDB server)',
    );
  });

  it('falls back to the driver error when what answers may be a database', () => {
    expect(devdbAddressMessage('127.0.0.1:27017', answer('HTTP/1.0 200 OK\r\n\r\nMongoDB'), 'Authentication failed')).toBe(
      'cannot reach the dev database at QRELAY_DEVDB_ADDRESS 127.0.0.1:27017 (MONGODB_URI is unset): Authentication failed; stop what answers there, or set QRELAY_DEVDB_ADDRESS to a free host:port for the dev database (or MONGODB_URI to a MongoDB server)',
    );
  });
});
