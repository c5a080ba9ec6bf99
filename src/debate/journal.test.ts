import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal, requestKey } from './journal.js';

const entry = (key: string) => ({ key, model: 'm', content: `answer ${key}`, usage: { promptTokens: 3, completionTokens: 1 } });

describe('Journal', () => {
  it('keeps answers across reopening, drops a line cut short by a crash, and goes on appending cleanly', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'qrelay-journal-')), 'journal.jsonl');
    const first = new Journal(file);
    first.append(entry('k1'));
    first.append(entry('k2'));
    first.close();
    appendFileSync(file, '{"key": "k3", "model": "m", "cont');
    const second = new Journal(file);
    expect(second.size).toBe(2);
    expect(second.get('k2')).toEqual(entry('k2'));
    expect(second.get('k3')).toBeUndefined();
    second.append(entry('k4'));
    second.close();
    expect(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { key: string }).key),
    ).toEqual(['k1', 'k2', 'k4']);
  });
  it('keys a request by model, temperature and every message', () => {
    const base = { model: 'm', temperature: 0, messages: [{ role: 'user' as const, content: 'x' }] };
    expect(requestKey(base)).toBe(requestKey({ ...base }));
    expect(requestKey({ ...base, model: 'n' })).not.toBe(requestKey(base));
    expect(requestKey({ ...base, temperature: 0.5 })).not.toBe(requestKey(base));
    expect(requestKey({ ...base, messages: [{ role: 'user', content: 'y' }] })).not.toBe(requestKey(base));
  });
});
