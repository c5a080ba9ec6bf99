import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fill, loadTemplates, numberedAnswers, parseTemplate, templateHash } from './prompts.js';

describe('templates', () => {
  it("the bundled ones are the paper's tables, split into system and user messages", async () => {
    const t = await loadTemplates();
    expect(t.firstRound.system).toMatch(/^You are \{agent1\}, and your task/);
    expect(t.firstRound.user).toMatch(
      /^<query> \{query\} <\/query> <answer> \{answer\} <\/answer> <doc> \{chunk\} <\/doc> <history> \{agentA\}: Yes\. The chunk contains complete information/,
    );
    expect(t.firstRound.user).toMatch(/"response": "yes or no" \}$/);
    expect(t.laterRound.user).toContain('<history> {agentA}: {agentA_reasoning} {agentB}: {agentB_reasoning} </history>');
    expect(t.adjudicator.system).toMatch(/^You are an ADJUDICATOR/);
    expect(t.adjudicator.user).toContain('<history> {history} </history>');
    expect(t.prefilter.system).toBe('');
    expect(t.prefilter.user).toMatch(/\{"is_supported": true\/false\}$/);
  });
  it('--prompts DIR: a missing file or separator is one line naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qrelay-prompts-'));
    await expect(loadTemplates(dir)).rejects.toThrow(
      /--prompts: cannot read .*(prefilter|debate-round-1|debate-round-n|adjudicator)\.txt \(no such file\)/,
    );
    for (const f of ['prefilter.txt', 'debate-round-1.txt', 'debate-round-n.txt'])
      writeFileSync(join(dir, f), 'sys\n=== user ===\nuser {query}');
    writeFileSync(join(dir, 'adjudicator.txt'), 'no separator');
    await expect(loadTemplates(dir)).rejects.toThrow(/adjudicator\.txt: no line "=== user ==="/);
    writeFileSync(join(dir, 'adjudicator.txt'), 'sys\n=== user ===\n{history}');
    const t = await loadTemplates(dir);
    expect(t.adjudicator).toMatchObject({ system: 'sys', user: '{history}' });
    expect(templateHash(t.firstRound)).not.toBe(templateHash((await loadTemplates()).firstRound));
  });
  it('an empty user part is refused', () => {
    expect(() => parseTemplate('x.txt', 'sys\n=== user ===\n  ')).toThrow(/x\.txt: the user message .* is empty/);
  });
  it('fill replaces known placeholders once and leaves other braces', () => {
    expect(fill('{query} {x} { "a": 1 } {chunk}', { query: '{chunk}', chunk: 'c' })).toBe('{chunk} {x} { "a": 1 } c');
    expect(numberedAnswers(['a', 'b'])).toBe('1. a\n2. b');
    expect(numberedAnswers([])).toBe('(none given)');
  });
});
