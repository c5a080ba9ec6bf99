import { describe, expect, it } from 'vitest';
import { cite, twoRounds, type DebateArguments, type DebateRandom } from './debate-text.js';

const args: DebateArguments = { pro: 'PRO.', con: 'CON.', objection: 'surface', defence: 'key' };
/** Always the first option; chance answers as told. */
const fixed = (chance: boolean): DebateRandom => ({ pick: (options) => options[0]!, chance: () => chance });

describe('twoRounds', () => {
  it('keeps both labels when not crossing: A ends on yes, B on no', () => {
    const turns = twoRounds(fixed(false), args, { a: 'open A', b: 'open B' }, ['the sentence'], false);
    expect(turns.map((t) => [t.round, t.agent, t.label])).toEqual([
      [1, 'A', 'yes'],
      [1, 'B', 'no'],
      [2, 'A', 'yes'],
      [2, 'B', 'no'],
    ]);
    expect(turns[1]!.references).toEqual([]);
    expect(turns[2]!.reasoning).toContain(cite('surface'));
  });

  it('switches both when crossing, so they still disagree, and B then quotes the sentence', () => {
    const turns = twoRounds(fixed(false), args, { a: 'open A', b: 'open B' }, ['the sentence'], true);
    expect(turns.slice(2).map((t) => t.label)).toEqual(['no', 'yes']);
    expect(turns[3]!.references).toEqual(['the sentence']);
    expect(turns[3]!.reasoning).toContain(cite('key'));
  });
});
