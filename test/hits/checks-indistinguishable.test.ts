import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { aucTest, fitLogistic, pageItemFeatures, type ItemFeatures } from '../../bench/support/page-features.js';
import { sampleFiles } from '../../src/demo/sample.js';
import type { EscalatedCase, GoldItem } from '../../src/domain/cases.js';
import { planHits } from '../../src/hits/plan.js';
import { seededRng } from '../../src/hits/random.js';
import { htmlOfQuestion as htmlOf, loadRecords as load } from '../../bench/support/sample-pages.js';

/**
 * Issue 16, item 3: can a classifier on the HIT page's HTML tell attention checks from real
 * items better than chance? (Not met yet: see the second test.)
 *
 * 1,000 pages go through qrelay's own planner and renderer (9 real items + 1 check each):
 * 500 from the bundled sample in its file order (items of one query together), 500 from a
 * generated 800-case batch like the held-out one (the sample's cases cloned under new
 * query ids and shuffled, so no query runs on a page). From each item's HTML alone come
 * its features (bench/support/page-features.ts: position, markup, highlight counts and
 * lengths, the debate's shape and lengths, quotes, the page's queries around the item,
 * how much of the reasoning is about the item's own text, and the 60 most frequent debate
 * words). A logistic regression (L2, classes balanced, deterministic) is cross-validated in
 * 5 folds split by item (an item is never in the training and the test fold at once), and
 * the pooled out-of-fold scores give the AUC.
 *
 * The noise bound: under "no separation" the AUC's standard error is
 * sqrt((n1 + n0 + 1) / (12 n1 n0)) (Mann–Whitney's U under H0). The same item shows on
 * many pages, so the pages are not independent draws: n1 and n0 are the DISTINCT check and
 * real items (the conservative count), and the AUC must lie within 3 standard errors of
 * 0.5. Two controls show the bound is neither too tight nor toothless: the same pipeline on
 * labels permuted over items stays within it, and a difference of half a standard deviation
 * planted in one feature (agent A's reasoning length) among ~90 of those permuted 'checks'
 * is detected beyond it.
 */

const PAGES_PER_BATCH = 500;
const TOP_WORDS = 60;
const FOLDS = 5;
const PRICING = { reward: '1.00', assignmentsPerHit: 3, masters: false };

interface Row {
  features: ItemFeatures;
  check: boolean;
}

const hashUnit = (text: string) => createHash('sha256').update(text).digest().readUInt32LE(0) / 2 ** 32;

function renderPages(cases: readonly EscalatedCase[], gold: readonly GoldItem[], pages: number, name: string): Row[] {
  const rows: Row[] = [];
  let rendered = 0;
  for (let s = 0; rendered < pages; s++) {
    const plan = planHits({ cases, gold }, { seed: `${name}-${s}`, layout: { itemsPerHit: 9, checksPerHit: 1 }, pricing: PRICING });
    for (const [h, hit] of plan.hits.entries()) {
      if (rendered >= pages) break;
      rendered++;
      pageItemFeatures(htmlOf(plan.questions[h]!.xml)).forEach((features, i) =>
        rows.push({ features, check: hit.items[i]!.kind === 'check' }),
      );
    }
  }
  return rows;
}

/** Pooled out-of-fold scores of a cross-validated logistic regression, folds by item key. */
function crossValidatedAuc(vectors: readonly number[][], labels: readonly boolean[], keys: readonly string[]) {
  const fold = keys.map((k) => Math.floor(hashUnit(`fold|${k}`) * FOLDS));
  const scores = new Array<number>(vectors.length).fill(0);
  for (let f = 0; f < FOLDS; f++) {
    const train = vectors.flatMap((_, i) => (fold[i] === f ? [] : [i]));
    const score = fitLogistic(
      train.map((i) => vectors[i]!),
      train.map((i) => (labels[i] ? 1 : 0)),
      { iterations: 150 },
    );
    vectors.forEach((v, i) => {
      if (fold[i] === f) scores[i] = score(v);
    });
  }
  return aucTest(
    scores.filter((_, i) => labels[i]),
    scores.filter((_, i) => !labels[i]),
  ).auc;
}

/** 3 standard errors of the AUC under H0, with the distinct items as the sample sizes. */
function noiseBound(labels: readonly boolean[], keys: readonly string[]): number {
  const n1 = new Set(keys.filter((_, i) => labels[i])).size;
  const n0 = new Set(keys.filter((_, i) => !labels[i])).size;
  return 3 * Math.sqrt((n1 + n0 + 1) / (12 * n1 * n0));
}

describe('attention checks on the HIT page', () => {
  let rows: Row[];
  let vectors: number[][];
  let names: string[];
  let labels: boolean[];
  let keys: string[];

  beforeAll(async () => {
    const cases = await load(sampleFiles.escalations, 'escalations');
    const gold = await load(sampleFiles.gold, 'gold');
    // the generated batch: 800 cases, clones under new query ids, in a shuffled order
    const clones = Array.from({ length: 800 }, (_, i) => {
      const c = cases[i % cases.length]!;
      return { ...c, query_id: `${c.query_id}g${Math.floor(i / cases.length)}` };
    });
    const generated = seededRng('checks-indistinguishable-batch').shuffle(clones);
    rows = [...renderPages(cases, gold, PAGES_PER_BATCH, 'sample'), ...renderPages(generated, gold, PAGES_PER_BATCH, 'generated')];
    const df = new Map<string, number>();
    for (const r of rows) for (const w of new Set(r.features.words)) df.set(w, (df.get(w) ?? 0) + 1);
    const vocabulary = [...df]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, TOP_WORDS)
      .map(([w]) => w);
    names = [...Object.keys(rows[0]!.features.numeric), ...vocabulary.map((w) => `word:${w}`)];
    vectors = rows.map((r) => {
      const present = new Set(r.features.words);
      return [...Object.values(r.features.numeric), ...vocabulary.map((w) => (present.has(w) ? 1 : 0))];
    });
    labels = rows.map((r) => r.check);
    keys = rows.map((r) => r.features.key);
  }, 120_000);

  it('renders 1,000 pages of 9 real items and 1 check', () => {
    // one page of the generated batch may be its last, smaller one (800 = 88 x 9 + 8)
    expect(rows.length).toBeGreaterThan(9_990);
    expect(labels.filter(Boolean)).toHaveLength(1000);
    expect(names.length).toBeGreaterThan(80);
  });

  // NOT YET the claim: measured AUC 0.646 against the noise bound 0.5 ± 0.105. With
  // template debates it was 0.996 (bench/checks-classifier.ts). What still tells checks apart
  // (standardized gaps, generated batch): how much of the agents' reasoning is about the
  // item's own text (-0.5: an adapted debate still paraphrases its donor's chunk), the
  // highlighted characters (-0.4) and which agent says yes (0.2). Until a check's debate is
  // written for its chunk (a gold item's own `debate`), this is a ceiling that keeps the
  // gain, not the indistinguishability test.
  it('a cross-validated classifier separates checks from real items far less than with template debates (ceiling 0.70)', () => {
    const bound = noiseBound(labels, keys);
    expect(bound).toBeLessThan(0.12);
    const auc = crossValidatedAuc(vectors, labels, keys);
    expect(auc, `AUC ${auc.toFixed(3)}, chance 0.5 ± ${bound.toFixed(3)}`).toBeLessThan(0.7);
  });

  it('controls: labels permuted over items stay within the bound; a planted half-SD difference goes beyond it', () => {
    const bound = noiseBound(labels, keys);
    // permutation: whole items are relabelled, as many checks as before (items repeat across pages)
    const distinct = [...new Set(keys)];
    const checkKeys = new Set(keys.filter((_, i) => labels[i]));
    const permuted = new Set(seededRng('checks-permutation').shuffle(distinct).slice(0, checkKeys.size));
    const permutedLabels = keys.map((k) => permuted.has(k));
    const nullAuc = crossValidatedAuc(vectors, permutedLabels, keys);
    expect(Math.abs(nullAuc - 0.5), `permuted AUC ${nullAuc.toFixed(3)}`).toBeLessThan(bound);

    const j = names.indexOf('aReasoningChars');
    const column = vectors.map((v) => v[j]!);
    const mean = column.reduce((a, b) => a + b, 0) / column.length;
    const sd = Math.sqrt(column.reduce((s, v) => s + (v - mean) ** 2, 0) / column.length);
    // planted on the permuted (null) labels, so that only the plant can be found
    const planted = vectors.map((v, i) => (permutedLabels[i] ? v.map((x, k) => (k === j ? x + 0.5 * sd : x)) : v));
    const plantedAuc = crossValidatedAuc(planted, permutedLabels, keys);
    expect(plantedAuc - 0.5, `planted AUC ${plantedAuc.toFixed(3)}`).toBeGreaterThan(bound);
  });
});
