import { createHash } from 'node:crypto';
import { sampleFiles } from '../src/demo/sample.js';
import { planHits } from '../src/hits/plan.js';
import { htmlOfQuestion as htmlOf, loadRecords as load } from './support/sample-pages.js';
const PRICING = { reward: '1.00', assignmentsPerHit: 3, masters: false };
import { aucTest, fitLogistic, pageItemFeatures, type ItemFeatures } from './support/page-features.js';

/**
 * Can attention checks be told from real items by what the HIT page shows? (issue 16, item 3)
 * `node --import tsx bench/checks-classifier.ts` prints the answer: the classifier's AUC on
 * held-out items, its test against chance, and the features that differ most.
 *
 * 1,000 HIT pages of the bundled sample batch (270 escalated cases, its 72 gold items; 9 real
 * items and 1 check per page, plans of different seeds) are rendered; from each item's HTML
 * alone come its features: position, lengths (query, answers, chunk, each agent's
 * reasoning), markup (agents, verdicts, quotes, highlight marks and what they cover, each
 * agent's highlights), the debate's shape (who says yes, hedges, assertions, inline quotes,
 * the confidence gap a reader perceives), the chunk's overlap with the query and answers,
 * and the 150 most frequent words as presence features. A logistic regression (L2, classes
 * balanced) learns checks vs real items on the items of 70% of the cases and gold items, and
 * scores the items of the other 30% (split by item, so that recognising an item seen in
 * training, which only repetition across pages would allow, is not what is measured).
 *
 * The test: the AUC beside chance (0.5) and their ratio, with the noise bound of
 * test/hits/checks-indistinguishable.test.ts: 3 standard errors of the AUC under H0
 * (Mann–Whitney), the distinct held-out items as the sample sizes (an item repeats across
 * pages). Deterministic (seeded plans). `--no-words` leaves the debate's words out.
 * Measured: 0.996 with template check debates; with debates adapted from the batch's
 * (check-debate-donor.ts) about 0.45–0.60 on this split, 0.65 cross-validated in the test:
 * see the figures it prints.
 */

const PAGES = 1000;
const TOP_WORDS = process.argv.includes('--no-words') ? 0 : 150;

/** 70% of the items (by a hash of their key) are for training. */
const inTraining = (key: string) => createHash('sha256').update(`split|${key}`).digest().readUInt32LE(0) / 2 ** 32 < 0.7;

const cases = await load(sampleFiles.escalations, 'escalations');
const gold = await load(sampleFiles.gold, 'gold');
const rows: { features: ItemFeatures; check: boolean }[] = [];
let pages = 0;
for (let s = 0; pages < PAGES; s++) {
  const plan = planHits({ cases, gold }, { seed: `indistinguishable-${s}`, layout: { itemsPerHit: 9, checksPerHit: 1 }, pricing: PRICING });
  for (const [h, hit] of plan.hits.entries()) {
    if (pages >= PAGES) break;
    pages++;
    const features = pageItemFeatures(htmlOf(plan.questions[h]!.xml));
    features.forEach((f, i) => rows.push({ features: f, check: hit.items[i]!.kind === 'check' }));
  }
}

const train = rows.filter((r) => inTraining(r.features.key));
const test = rows.filter((r) => !inTraining(r.features.key));
const df = new Map<string, number>();
for (const r of train) for (const w of new Set(r.features.words)) df.set(w, (df.get(w) ?? 0) + 1);
const vocabulary = [...df]
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, TOP_WORDS)
  .map(([w]) => w);
const names = [...Object.keys(rows[0]!.features.numeric), ...vocabulary.map((w) => `word:${w}`)];
const vector = (f: ItemFeatures) => {
  const present = new Set(f.words);
  return [...Object.values(f.numeric), ...vocabulary.map((w) => (present.has(w) ? 1 : 0))];
};
const vectors = new Map(rows.map((r) => [r, vector(r.features)]));
const score = fitLogistic(
  train.map((r) => vectors.get(r)!),
  train.map((r) => (r.check ? 1 : 0)),
);
const scored = test.map((r) => ({ check: r.check, s: score(vectors.get(r)!) }));
const result = aucTest(
  scored.filter((r) => r.check).map((r) => r.s),
  scored.filter((r) => !r.check).map((r) => r.s),
);

// for a failing run: the features whose means differ most between checks and real items
const gaps = names.map((name, j) => {
  const values = (check: boolean) => rows.filter((r) => r.check === check).map((r) => vectors.get(r)![j]!);
  const [c, r] = [values(true), values(false)];
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const all = [...c, ...r];
  const m = mean(all);
  const sd = Math.sqrt(all.reduce((s, v) => s + (v - m) ** 2, 0) / all.length) || 1;
  return { name, gap: (mean(c) - mean(r)) / sd };
});
const worst = gaps
  .sort((a, b) => Math.abs(b.gap) - Math.abs(a.gap))
  .slice(0, 8)
  .map((g) => `${g.name} ${g.gap.toFixed(2)}`);
// the noise bound under H0 counts each distinct item once: an item repeats across pages
const distinct = (check: boolean) => new Set(test.filter((r) => r.check === check).map((r) => r.features.key)).size;
const [n1, n0] = [distinct(true), distinct(false)];
const bound = 3 * Math.sqrt((n1 + n0 + 1) / (12 * n1 * n0));
const summary = `AUC ${result.auc.toFixed(3)} vs chance 0.500 (ratio ${(result.auc / 0.5).toFixed(2)}; noise bound ±${bound.toFixed(3)} from ${n1} distinct checks and ${n0} real items held out) on ${scored.length} held-out items (${scored.filter((r) => r.check).length} checks), row-level z ${result.z.toFixed(2)}; largest standardized gaps: ${worst.join(', ')}`;
console.log(`checks vs real items on ${pages} HIT pages: ${summary}`);
console.log(
  Math.abs(result.auc - 0.5) < bound ? 'within the noise bound of chance' : 'OUTSIDE the noise bound of chance: the page gives checks away',
);
