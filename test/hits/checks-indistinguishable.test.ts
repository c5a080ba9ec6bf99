import { beforeAll, describe, expect, it } from 'vitest';
import {
  crossValidatedAuc,
  featureMatrix,
  generatedBatch,
  noiseBound,
  renderPageRows,
  withoutDebates,
  type FeatureMatrix,
} from '../../bench/support/checks-study.js';
import { loadRecords as load } from '../../bench/support/sample-pages.js';
import { sampleFiles } from '../../src/demo/sample.js';
import type { EscalatedCase, GoldItem } from '../../src/domain/cases.js';
import { seededRng } from '../../src/hits/random.js';

/**
 * Issue 16, item 3: a classifier on the HIT page's HTML cannot tell attention checks from
 * real items better than chance.
 *
 * 1,000 pages go through qrelay's own planner and renderer (9 real items + 1 check each):
 * 500 from the bundled sample in its file order (items of one query together), 500 from a
 * generated 800-case batch like the held-out one (the sample's cases cloned under new
 * query ids and shuffled, so no query runs on a page). The sample's gold items carry their
 * own debates (tools/samples/debates.ts, goldDebates: written for each gold item's query
 * and chunk by the generator of the escalated cases' debates, with their mix of crossed
 * and generically argued debates). From each item's HTML alone come its features
 * (bench/support/page-features.ts: position, markup, highlight counts and lengths, the
 * debate's shape and lengths, quotes, the page's queries around the item, how much of the
 * reasoning is about the item's own text, and the 60 most frequent debate words). A
 * logistic regression (L2, classes balanced, deterministic) is cross-validated in 5 folds
 * split by item (an item is never in the training and the test fold at once), and the
 * pooled out-of-fold scores give the AUC (bench/support/checks-study.ts).
 *
 * The noise bound: under "no separation" the AUC's standard error is
 * sqrt((n1 + n0 + 1) / (12 n1 n0)) (Mann–Whitney's U under H0). The same item shows on
 * many pages, so the pages are not independent draws: n1 and n0 are the DISTINCT check and
 * real items (the conservative count), and the AUC must lie within 3 standard errors of
 * 0.5. Two controls show the bound is neither too tight nor toothless: the same pipeline on
 * labels permuted over items stays within it, and a difference of half a standard deviation
 * planted in one feature (agent A's reasoning length) among ~90 of those permuted 'checks'
 * is detected beyond it.
 *
 * Measured (`node --import tsx bench/checks-classifier.ts` prints the same): 0.577 against
 * 0.5 ± 0.105 on the 1,000 pages; by half, the sample 0.562 ± 0.115 and the generated batch
 * 0.605 ± 0.107 (both within, the second narrowly). Gold WITHOUT debates of its own (a
 * user's gold: checks adapt a donor debate of the batch, check-debate-donor.ts) is not
 * there yet: 0.645 on the 1,000 pages, outside the bound; the last test keeps its ceiling.
 */

const PAGES_PER_BATCH = 500;
const TOP_WORDS = 60;

describe('attention checks on the HIT page', () => {
  let cases: EscalatedCase[];
  let gold: GoldItem[];
  let generated: EscalatedCase[];
  let m: FeatureMatrix;

  const pagesOf = (g: readonly GoldItem[]) =>
    featureMatrix(
      [...renderPageRows(cases, g, PAGES_PER_BATCH, 'sample'), ...renderPageRows(generated, g, PAGES_PER_BATCH, 'generated')],
      TOP_WORDS,
    );

  beforeAll(async () => {
    cases = await load(sampleFiles.escalations, 'escalations');
    gold = await load(sampleFiles.gold, 'gold');
    generated = generatedBatch(cases, 800);
    m = pagesOf(gold);
  }, 120_000);

  it("renders 1,000 pages of 9 real items and 1 check, every check with its gold item's own debate", () => {
    // one page of the generated batch may be its last, smaller one (800 = 88 x 9 + 8)
    expect(m.vectors.length).toBeGreaterThan(9_990);
    expect(m.labels.filter(Boolean)).toHaveLength(1000);
    expect(m.names.length).toBeGreaterThan(80);
    expect(gold.every((g) => (g.debate?.length ?? 0) > 0)).toBe(true);
  });

  it('a cross-validated classifier separates checks from real items no better than chance (within the noise bound)', () => {
    const bound = noiseBound(m.labels, m.keys);
    expect(bound).toBeLessThan(0.12);
    const auc = crossValidatedAuc(m.vectors, m.labels, m.keys);
    expect(Math.abs(auc - 0.5), `AUC ${auc.toFixed(3)}, chance 0.5 ± ${bound.toFixed(3)}`).toBeLessThan(bound);
  });

  it('controls: labels permuted over items stay within the bound; a planted half-SD difference goes beyond it', () => {
    const bound = noiseBound(m.labels, m.keys);
    // permutation: whole items are relabelled, as many checks as before (items repeat across pages)
    const distinct = [...new Set(m.keys)];
    const checkKeys = new Set(m.keys.filter((_, i) => m.labels[i]));
    const permuted = new Set(seededRng('checks-permutation').shuffle(distinct).slice(0, checkKeys.size));
    const permutedLabels = m.keys.map((k) => permuted.has(k));
    const nullAuc = crossValidatedAuc(m.vectors, permutedLabels, m.keys);
    expect(Math.abs(nullAuc - 0.5), `permuted AUC ${nullAuc.toFixed(3)}`).toBeLessThan(bound);

    const j = m.names.indexOf('aReasoningChars');
    const column = m.vectors.map((v) => v[j]!);
    const mean = column.reduce((a, b) => a + b, 0) / column.length;
    const sd = Math.sqrt(column.reduce((s, v) => s + (v - mean) ** 2, 0) / column.length);
    // planted on the permuted (null) labels, so that only the plant can be found
    const planted = m.vectors.map((v, i) => (permutedLabels[i] ? v.map((x, k) => (k === j ? x + 0.5 * sd : x)) : v));
    const plantedAuc = crossValidatedAuc(planted, permutedLabels, m.keys);
    expect(plantedAuc - 0.5, `planted AUC ${plantedAuc.toFixed(3)}`).toBeGreaterThan(bound);
  });

  // NOT YET the claim for gold without debates of its own: measured 0.645 against
  // 0.5 ± 0.105. What still tells an adapted donor debate apart (standardized gaps): how much
  // of the agents' reasoning is about the item's own text (-0.6: it still paraphrases its
  // donor's chunk) and the highlighted characters (-0.4). A ceiling that keeps the gain over
  // template debates (0.996), not the indistinguishability test.
  it('with gold that has no debates of its own (donor debates), a classifier separates far less than with template debates (ceiling 0.70)', () => {
    const donor = pagesOf(withoutDebates(gold));
    const auc = crossValidatedAuc(donor.vectors, donor.labels, donor.keys);
    expect(auc, `AUC ${auc.toFixed(3)} with donor debates`).toBeLessThan(0.7);
  }, 120_000);
});
