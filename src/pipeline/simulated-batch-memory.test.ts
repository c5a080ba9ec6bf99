import { describe, expect, it } from 'vitest';
import type { PipelineContext } from './context.js';
import { SimulatedBatchMemory } from './simulated-batch-memory.js';

// only the database's name is read from the context
const on = (name: string) => ({ models: { batches: { db: { name } } } }) as unknown as PipelineContext;
const batch = (id: string, created = '2030-01-01T00:00:00Z') => ({ _id: id, createdAt: new Date(created) });

describe('SimulatedBatchMemory', () => {
  it('keeps one value per database, batch and creation', () => {
    const memory = new SimulatedBatchMemory<number>();
    memory.set(on('a'), batch('b1'), 1);
    expect(memory.get(on('a'), batch('b1'))).toBe(1);
    expect(memory.get(on('other'), batch('b1'))).toBeUndefined();
    expect(memory.get(on('a'), batch('b2'))).toBeUndefined();
    // a batch made anew under the same name is another
    expect(memory.get(on('a'), batch('b1', '2030-01-02T00:00:00Z'))).toBeUndefined();
    memory.set(on('a'), batch('b1'), 2);
    expect(memory.get(on('a'), batch('b1'))).toBe(2);
  });

  it('forgets every batch when a seventeenth comes, and keeps updating those it holds', () => {
    const memory = new SimulatedBatchMemory<number>();
    for (let i = 0; i < 16; i++) memory.set(on('a'), batch(`b${i}`), i);
    memory.set(on('a'), batch('b3'), 33);
    expect(memory.get(on('a'), batch('b0'))).toBe(0);
    memory.set(on('a'), batch('b16'), 16);
    expect(memory.get(on('a'), batch('b0'))).toBeUndefined();
    expect(memory.get(on('a'), batch('b16'))).toBe(16);
  });
});
