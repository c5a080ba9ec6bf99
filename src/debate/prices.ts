import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '../errors.js';
import type { Usage } from './journal.js';

/**
 * Token prices per model in USD per million tokens, for the cost lines of the debate and
 * the adjudicator. The defaults are public list prices at the time of writing; a JSON file
 * named by QRELAY_LLM_PRICES (`{"model": {"input": 0.15, "output": 0.6}}`) adds to or
 * overrides them. A model without a price has no cost (reported as unknown, never as 0).
 */

export const ModelPrice = z.object({
  input: z.number().min(0),
  output: z.number().min(0),
});
export type ModelPrice = z.infer<typeof ModelPrice>;
export const PriceTable = z.record(z.string().min(1), ModelPrice);
export type PriceTable = z.infer<typeof PriceTable>;

export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'meta-llama/Llama-3.3-70B-Instruct': { input: 0.88, output: 0.88 },
};

/** The table in force: the defaults, overridden by the file, if any. */
export function loadPriceTable(file: string | undefined): PriceTable {
  if (file === undefined) return DEFAULT_PRICES;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UserError(
      `QRELAY_LLM_PRICES: cannot read ${file} as JSON (${(err as Error).message}): expected {"model": {"input": usdPerMillion, "output": usdPerMillion}}`,
    );
  }
  const parsed = PriceTable.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(
      `QRELAY_LLM_PRICES: ${file}: ${issue.path.join('.') || 'the file'}: ${issue.message}; expected {"model": {"input": usdPerMillion, "output": usdPerMillion}}`,
    );
  }
  return { ...DEFAULT_PRICES, ...parsed.data };
}

export interface LlmCost {
  /** USD (to the micro-dollar); null when a model used has no price. */
  usd: number | null;
  unpriced: string[];
}

/** The cost of the tokens used, per model. */
export function llmCost(byModel: Readonly<Record<string, Usage>>, prices: PriceTable): LlmCost {
  let usd = 0;
  const unpriced: string[] = [];
  for (const [model, usage] of Object.entries(byModel)) {
    const price = prices[model];
    if (!price) {
      if (usage.promptTokens + usage.completionTokens > 0) unpriced.push(model);
      continue;
    }
    usd += (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1e6;
  }
  return { usd: unpriced.length > 0 ? null : Math.round(usd * 1e6) / 1e6, unpriced: unpriced.sort() };
}

/** `$1.23`; below a cent `$0.0042`; `unknown (no price for m)`. */
export function formatCost(cost: LlmCost | null | undefined): string {
  if (!cost) return 'n/a';
  if (cost.usd === null) return `unknown (no price for ${cost.unpriced.join(', ')})`;
  return cost.usd > 0 && cost.usd < 0.01 ? `$${cost.usd.toFixed(4)}` : `$${cost.usd.toFixed(2)}`;
}

/** The cost line: "LLM debate $X, crowd $Y, adjudicator $Z" (n/a for a step that has not run). */
export function costLine(cost: { debate: LlmCost | null; crowdCents: number | null; adjudicator: LlmCost | null }): string {
  const crowd = cost.crowdCents === null ? 'n/a' : `$${(cost.crowdCents / 100).toFixed(2)}`;
  return `LLM debate ${formatCost(cost.debate)}, crowd ${crowd}, adjudicator ${formatCost(cost.adjudicator)}`;
}
