import { describe, expect, it } from 'vitest';
import { BOUNDED_HEAP_COMMANDS, boundHeapGrowth } from './heap.js';

describe('boundHeapGrowth', () => {
  it('leaves the heap of a command that holds no whole batch as V8 grows it', () => {
    expect(boundHeapGrowth(undefined)).toBe(false);
    expect(boundHeapGrowth('import')).toBe(false);
    expect(boundHeapGrowth('serve')).toBe(false);
  });

  it('bounds the heap of qrelay simulate', () => {
    expect(BOUNDED_HEAP_COMMANDS.has('simulate')).toBe(true);
    expect(boundHeapGrowth('simulate')).toBe(true);
  });
});
