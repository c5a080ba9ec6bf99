import { parseFragment } from 'parse5';
import { attr, elements, textContent, type HtmlElement } from '@qrelay/marketplace';
import { pageArgumentConfidence } from '../../src/simulation/form.js';

/**
 * What a worker (or a script) can read off one item of a HIT page, as numbers: the
 * features a classifier gets to tell attention checks from real items. Only the page's
 * HTML is read; the plan says which items are checks (the label to learn).
 */

export interface ItemFeatures {
  key: string;
  /** What the page makes of the item: position, markup, highlights, the debate's shape and lengths. */
  numeric: Record<string, number>;
  /** The item's own data, which the requester's files decide (query, answers, chunk). */
  data: Record<string, number>;
  /** Lower-cased words of the debate the page shows. */
  words: string[];
  /** Lower-cased words of the item's data (query, answers, chunk). */
  dataWords: string[];
}

const HEDGES = /\b(may|might|perhaps|possibly|unclear|seems?|could|arguably|likely|probably|uncertain|appears?)\b/gi;
const ASSERTIONS = /\b(clearly|directly|explicitly|states?|names?|gives?|keep my label|certainly)\b/gi;
const shareIn = (words: string[], within: ReadonlySet<string>) =>
  words.length === 0 ? 0 : words.filter((w) => within.has(w)).length / words.length;
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
// callers pass an element list walked once: walking the tree per lookup made 1,000 pages slow
const byClass = (within: readonly HtmlElement[], name: string) =>
  within.filter((e) => (attr(e, 'class') ?? '').split(/\s+/).includes(name));

/** One page's items in page order, with their features. */
export function pageItemFeatures(html: string): ItemFeatures[] {
  // only the form holds items: parsing the page's inline style and script too doubled the time
  const form = html.slice(html.indexOf('<form'), html.lastIndexOf('</form>') + '</form>'.length);
  const items = [...elements(parseFragment(form))].filter((e) => attr(e, 'data-sim-key') !== undefined);
  const within = items.map((item) => [...elements(item)]);
  const queries = items.map((item, i) =>
    textContent(byClass(within[i]!, 'query')[0] ?? item)
      .trim()
      .toLowerCase(),
  );
  return items.map((item, index) => {
    const inside = within[index]!;
    const query = textContent(byClass(inside, 'query')[0] ?? item);
    const same = (i: number) => (queries[i] === queries[index] ? 1 : 0);
    const answers = byClass(inside, 'answers')[0];
    const answerTexts = answers ? [...elements(answers)].filter((e) => e.tagName === 'li').map((e) => textContent(e)) : [];
    const chunkEl = byClass(inside, 'chunk')[0]!;
    const chunk = textContent(chunkEl);
    const marks = [...elements(chunkEl)].filter((e) => e.tagName === 'mark');
    const markedChars = marks.reduce((s, m) => s + textContent(m).length, 0);
    const agents = inside.filter((e) => attr(e, 'data-sim-verdict') !== undefined);
    const agent = (i: number) => {
      const el = agents[i];
      if (!el) return { verdictYes: 0, reasoning: '', refs: 0, text: '' };
      const parts = [...elements(el)];
      const refs = parts.filter((e) => e.tagName === 'q');
      return {
        verdictYes: attr(el, 'data-sim-verdict') === 'yes' ? 1 : 0,
        reasoning: textContent(byClass(parts, 'reasoning')[0] ?? el),
        refs: refs.length,
        text: textContent(el),
      };
    };
    const a = agent(0);
    const b = agent(1);
    const lowerChunk = chunk.toLowerCase();
    const queryWords = new Set(wordsOf(query));
    const chunkWords = wordsOf(chunk);
    const confidence = (x: ReturnType<typeof agent>) => pageArgumentConfidence(x.text, x.refs);
    const data: Record<string, number> = {
      queryChars: query.length,
      answers: answerTexts.length,
      answerChars: answerTexts.join(' ').length,
      chunkChars: chunk.length,
      chunkSentences: chunk.split(/[.!?]\s/).length,
      answerInChunk: answerTexts.some((t) => t.length > 0 && lowerChunk.includes(t.toLowerCase())) ? 1 : 0,
      queryWordsInChunk: chunkWords.filter((w) => queryWords.has(w)).length / Math.max(1, chunkWords.length),
    };
    const numeric: Record<string, number> = {
      position: index + 1,
      relativePosition: (index + 1) / items.length,
      marks: marks.length,
      markedChars,
      markedShare: chunk.length ? markedChars / chunk.length : 0,
      marksOfA: marks.filter((m) => (attr(m, 'class') ?? '').includes('ev-0')).length,
      marksOfB: marks.filter((m) => (attr(m, 'class') ?? '').includes('ev-1')).length,
      marksShared: marks.filter((m) => (attr(m, 'class') ?? '').includes('ev-many')).length,
      agents: agents.length,
      aSaysYes: a.verdictYes,
      bSaysYes: b.verdictYes,
      aReasoningChars: a.reasoning.length,
      bReasoningChars: b.reasoning.length,
      aRefs: a.refs,
      bRefs: b.refs,
      aHedges: count(a.reasoning, HEDGES),
      bHedges: count(b.reasoning, HEDGES),
      aAssertions: count(a.reasoning, ASSERTIONS),
      bAssertions: count(b.reasoning, ASSERTIONS),
      aInlineQuotes: count(a.reasoning, /"/g),
      bInlineQuotes: count(b.reasoning, /"/g),
      confidenceGap: confidence(a) - confidence(b),
      elements: inside.length,
      // the page around the item: a check whose query no other item has, or that breaks a run of one query, stands out
      queryElsewhereOnPage: queries.filter((q, i) => i !== index && q === queries[index]).length,
      sameQueryNeighbours: (index > 0 ? same(index - 1) : 0) + (index + 1 < items.length ? same(index + 1) : 0),
      // how much of what the agents say is about this item's own text
      reasoningWordsInItem: shareIn(
        wordsOf(`${a.reasoning} ${b.reasoning}`),
        new Set(wordsOf(`${query} ${answerTexts.join(' ')} ${chunk}`)),
      ),
    };
    return {
      key: attr(item, 'data-sim-key')!,
      numeric,
      data,
      words: wordsOf(`${a.text} ${b.text}`),
      dataWords: wordsOf(`${query} ${answerTexts.join(' ')} ${chunk}`),
    };
  });
}

/** Logistic regression with an L2 penalty, fitted by full-batch gradient descent on standardized features. */
export function fitLogistic(
  x: readonly number[][],
  y: readonly number[],
  opts: { l2?: number; iterations?: number; rate?: number } = {},
): (row: readonly number[]) => number {
  const d = x[0]!.length;
  const mean = Array.from({ length: d }, (_, j) => x.reduce((s, r) => s + r[j]!, 0) / x.length);
  const sd = Array.from({ length: d }, (_, j) => Math.sqrt(x.reduce((s, r) => s + (r[j]! - mean[j]!) ** 2, 0) / x.length) || 1);
  const z = x.map((r) => r.map((v, j) => (v - mean[j]!) / sd[j]!));
  // classes weighted to balance: checks are a tenth of the items
  const positives = y.filter((v) => v === 1).length;
  const weight = y.map((v) => (v === 1 ? x.length / (2 * positives) : x.length / (2 * (x.length - positives))));
  const w = new Array<number>(d).fill(0);
  let bias = 0;
  const { l2 = 1e-3, iterations = 400, rate = 0.5 } = opts;
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d).fill(0);
    let gradBias = 0;
    for (let i = 0; i < z.length; i++) {
      const row = z[i]!;
      let s = bias;
      for (let j = 0; j < d; j++) s += w[j]! * row[j]!;
      const err = (1 / (1 + Math.exp(-s)) - y[i]!) * weight[i]!;
      gradBias += err;
      for (let j = 0; j < d; j++) grad[j]! += err * row[j]!;
    }
    bias -= (rate * gradBias) / z.length;
    for (let j = 0; j < d; j++) w[j]! -= rate * (grad[j]! / z.length + l2 * w[j]!);
  }
  return (row) => {
    let s = bias;
    for (let j = 0; j < d; j++) s += (w[j]! * (row[j]! - mean[j]!)) / sd[j]!;
    return 1 / (1 + Math.exp(-s));
  };
}

/**
 * The area under the ROC curve of `scores` for positives vs negatives (Mann–Whitney U /
 * n1 n0, ties counted half) and the one-sided p-value of "better than chance" from U's
 * normal approximation under H0 (no separation): mean n1 n0 / 2, variance n1 n0 (n1 + n0 + 1) / 12.
 */
export function aucTest(positives: readonly number[], negatives: readonly number[]): { auc: number; z: number; p: number } {
  const all = [...positives.map((s) => ({ s, pos: true })), ...negatives.map((s) => ({ s, pos: false }))].sort((a, b) => a.s - b.s);
  let rankSum = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j]!.s === all[i]!.s) j++;
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.pos) rankSum += rank;
    i = j;
  }
  const n1 = positives.length;
  const n0 = negatives.length;
  const u = rankSum - (n1 * (n1 + 1)) / 2;
  const z = (u - (n1 * n0) / 2) / Math.sqrt((n1 * n0 * (n1 + n0 + 1)) / 12);
  return { auc: u / (n1 * n0), z, p: 0.5 * erfc(z / Math.SQRT2) };
}

/** Complementary error function (Numerical Recipes' erfcc, relative error < 1.2e-7). */
function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851173 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? y : 2 - y;
}
