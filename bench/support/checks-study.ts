import { createHash } from 'node:crypto';
import type { EscalatedCase, GoldItem } from '../../src/domain/cases.js';
import { planHits } from '../../src/hits/plan.js';
import { seededRng } from '../../src/hits/random.js';
import { aucTest, fitLogistic, pageItemFeatures, type ItemFeatures } from './page-features.js';
import { htmlOfQuestion } from './sample-pages.js';

/**
 * The study behind issue 16, item 3 ("checks indistinguishable from real items"), shared by
 * test/hits/checks-indistinguishable.test.ts and bench/checks-classifier.ts: HIT pages from
 * qrelay's own planner and renderer, each item's features from its HTML alone
 * (page-features.ts), a logistic regression cross-validated in folds split by item, and the
 * noise bound of the AUC under "no separation".
 */

const PRICING = { reward: '1.00', assignmentsPerHit: 3, masters: false };
const FOLDS = 5;

export interface PageRow {
  features: ItemFeatures;
  check: boolean;
}

const hashUnit = (text: string) => createHash('sha256').update(text).digest().readUInt32LE(0) / 2 ** 32;

/** `pages` HIT pages of 9 real items and 1 check, from plans seeded `${name}-0`, `${name}-1`, ... */
export function renderPageRows(cases: readonly EscalatedCase[], gold: readonly GoldItem[], pages: number, name: string): PageRow[] {
  const rows: PageRow[] = [];
  let rendered = 0;
  for (let s = 0; rendered < pages; s++) {
    const plan = planHits({ cases, gold }, { seed: `${name}-${s}`, layout: { itemsPerHit: 9, checksPerHit: 1 }, pricing: PRICING });
    for (const [h, hit] of plan.hits.entries()) {
      if (rendered >= pages) break;
      rendered++;
      pageItemFeatures(htmlOfQuestion(plan.questions[h]!.xml)).forEach((features, i) =>
        rows.push({ features, check: hit.items[i]!.kind === 'check' }),
      );
    }
  }
  return rows;
}

/**
 * The generated batch of the study, like bars/quality's held-out one: `size` cases, the
 * sample's cases cloned under new query ids and shuffled (so no query runs on a page).
 */
export function generatedBatch(cases: readonly EscalatedCase[], size: number): EscalatedCase[] {
  const clones = Array.from({ length: size }, (_, i) => {
    const c = cases[i % cases.length]!;
    return { ...c, query_id: `${c.query_id}g${Math.floor(i / cases.length)}` };
  });
  return seededRng('checks-indistinguishable-batch').shuffle(clones);
}

/** The gold items without their own debates: a user's gold, whose checks adapt a donor's debate. */
export const withoutDebates = (gold: readonly GoldItem[]): GoldItem[] =>
  gold.map((g) => {
    const { debate: _debate, ...rest } = g;
    return rest;
  });

export interface FeatureMatrix {
  names: string[];
  vectors: number[][];
  labels: boolean[];
  keys: string[];
}

/** The numeric features and the `topWords` most frequent debate words (presence), by document frequency over `rows`. */
export function featureMatrix(rows: readonly PageRow[], topWords: number): FeatureMatrix {
  const df = new Map<string, number>();
  for (const r of rows) for (const w of new Set(r.features.words)) df.set(w, (df.get(w) ?? 0) + 1);
  const vocabulary = [...df]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, topWords)
    .map(([w]) => w);
  return {
    names: [...Object.keys(rows[0]!.features.numeric), ...vocabulary.map((w) => `word:${w}`)],
    vectors: rows.map((r) => {
      const present = new Set(r.features.words);
      return [...Object.values(r.features.numeric), ...vocabulary.map((w) => (present.has(w) ? 1 : 0))];
    }),
    labels: rows.map((r) => r.check),
    keys: rows.map((r) => r.features.key),
  };
}

/** Pooled out-of-fold scores of a cross-validated logistic regression (5 folds by item key), as an AUC. */
export function crossValidatedAuc(vectors: readonly number[][], labels: readonly boolean[], keys: readonly string[]): number {
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

/**
 * 3 standard errors of the AUC under H0 (Mann–Whitney: sqrt((n1 + n0 + 1) / (12 n1 n0))),
 * with the DISTINCT check and real items as n1 and n0: an item repeats across pages, so
 * its rows are not independent draws (the conservative count).
 */
export function noiseBound(labels: readonly boolean[], keys: readonly string[]): number {
  const n1 = new Set(keys.filter((_, i) => labels[i])).size;
  const n0 = new Set(keys.filter((_, i) => !labels[i])).size;
  return 3 * Math.sqrt((n1 + n0 + 1) / (12 * n1 * n0));
}

/** The features whose means differ most between checks and real items, in pooled standard deviations. */
export function largestGaps(matrix: FeatureMatrix, count: number): { name: string; gap: number }[] {
  const { names, vectors, labels } = matrix;
  return names
    .map((name, j) => {
      const column = vectors.map((v) => v[j]!);
      const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
      const m = mean(column);
      const sd = Math.sqrt(column.reduce((s, v) => s + (v - m) ** 2, 0) / column.length) || 1;
      return { name, gap: (mean(column.filter((_, i) => labels[i])) - mean(column.filter((_, i) => !labels[i]))) / sd };
    })
    .sort((a, b) => Math.abs(b.gap) - Math.abs(a.gap))
    .slice(0, count);
}
