import { describe, expect, it } from 'vitest';
import { describeHolder, formatHolder, goneHolder, parseHolder, processAlive } from './round-holder.js';

describe('round lease holders', () => {
  it('round-trips pid, host and tag, hosts with dots and dashes included', () => {
    const h = { pid: 4242, host: 'ci-runner.example.org', tag: 'k3j9x' };
    expect(parseHolder(formatHolder(h))).toEqual(h);
  });

  it('reads nothing from other forms (an older qrelay wrote <pid>-<tag>)', () => {
    for (const owner of [null, undefined, '', '4242-k3j9x', 'someone-else', '@host/x', 'x@host/y'])
      expect(parseHolder(owner)).toBeUndefined();
  });

  it('names a holder that can be taken over only when it is on this host and its process is gone', () => {
    const owner = formatHolder({ pid: 7, host: 'here', tag: 't' });
    expect(goneHolder(owner, 'here', () => false)).toEqual({ pid: 7, host: 'here', tag: 't' });
    expect(goneHolder(owner, 'here', () => true)).toBeUndefined();
    expect(goneHolder(owner, 'elsewhere', () => false)).toBeUndefined();
    expect(goneHolder('7-t', 'here', () => false)).toBeUndefined();
  });

  it('checks a process by its id', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(2 ** 22 + 12345)).toBe(false); // above Linux's pid_max
  });

  it('describes a holder for messages', () => {
    expect(describeHolder(formatHolder({ pid: 7, host: 'h1', tag: 't' }))).toBe('process 7 on h1');
    expect(describeHolder('someone-else')).toBe('another process');
  });
});
