import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES, formatCost, llmCost, loadPriceTable } from './prices.js';

describe('LLM prices', () => {
  it('costs tokens per model in USD per million tokens', () => {
    const cost = llmCost(
      { 'gpt-4o-mini': { promptTokens: 1_000_000, completionTokens: 500_000 }, 'gpt-4o': { promptTokens: 1000, completionTokens: 100 } },
      DEFAULT_PRICES,
    );
    expect(cost).toEqual({ usd: 0.4535, unpriced: [] });
    expect(formatCost(cost)).toBe('$0.45');
    expect(formatCost(llmCost({ 'gpt-4o': { promptTokens: 1000, completionTokens: 0 } }, DEFAULT_PRICES))).toBe('$0.0025');
  });
  it('a model without a price makes the cost unknown, never 0', () => {
    const cost = llmCost(
      { mystery: { promptTokens: 10, completionTokens: 1 }, 'gpt-4o': { promptTokens: 1, completionTokens: 1 } },
      DEFAULT_PRICES,
    );
    expect(cost).toEqual({ usd: null, unpriced: ['mystery'] });
    expect(formatCost(cost)).toBe('unknown (no price for mystery)');
    expect(formatCost(undefined)).toBe('n/a');
  });
  it('QRELAY_LLM_PRICES adds to and overrides the defaults; a bad file is one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qrelay-prices-'));
    const good = join(dir, 'prices.json');
    writeFileSync(good, JSON.stringify({ mystery: { input: 1, output: 2 }, 'gpt-4o': { input: 0, output: 0 } }));
    const table = loadPriceTable(good);
    expect(table.mystery).toEqual({ input: 1, output: 2 });
    expect(table['gpt-4o']).toEqual({ input: 0, output: 0 });
    expect(table['gpt-4o-mini']).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ m: { input: -1, output: 2 } }));
    expect(() => loadPriceTable(bad)).toThrow(/QRELAY_LLM_PRICES: .*bad\.json: m\.input: .*expected \{"model"/);
    expect(() => loadPriceTable(join(dir, 'none.json'))).toThrow(/QRELAY_LLM_PRICES: cannot read .*none\.json as JSON/);
  });
});
