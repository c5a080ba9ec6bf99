import { describe, expect, it } from 'vitest';
import { canaryText, canaryWord, repeatsCanary } from './canary.js';

describe('canaryWord', () => {
  it('is the same word for a key in every version and every call (stored answers are checked against it later)', () => {
    // the words this function made before it kept them: a change here orphans every canary already on a page
    const words = { 'q1\tc1': 'quilrentasine', 'item-7': 'quiltasbriine', '': 'pravimorine' };
    for (let round = 0; round < 3; round++) {
      for (const [key, word] of Object.entries(words)) expect(canaryWord(key)).toBe(word);
    }
  });

  it('is found again in a worker text, in any case, as a whole word', () => {
    const word = canaryWord('item-7');
    expect(canaryText('item-7')).toContain(word);
    expect(repeatsCanary(`The answer is yes (${word.toUpperCase()}).`, 'item-7')).toBe(true);
    expect(repeatsCanary(`x${word}`, 'item-7')).toBe(false);
    expect(repeatsCanary('no code word here', 'item-7')).toBe(false);
  });
});
