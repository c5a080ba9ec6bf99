import { sampleFiles } from '../src/demo/sample.js';
import {
  crossValidatedAuc,
  featureMatrix,
  generatedBatch,
  largestGaps,
  noiseBound,
  renderPageRows,
  withoutDebates,
  type PageRow,
} from './support/checks-study.js';
import { loadRecords as load } from './support/sample-pages.js';

/**
 * Can attention checks be told from real items by what the HIT page shows? (issue 16, item 3)
 * `node --import tsx bench/checks-classifier.ts` prints the answer for the pages of
 * test/hits/checks-indistinguishable.test.ts (bench/support/checks-study.ts): 500 HIT pages
 * of the bundled sample (270 escalated cases in file order, 9 real items and 1 check each)
 * and 500 of a generated 800-case batch (the cases cloned under new query ids, shuffled),
 * each half alone and both together; then the same pages with the gold items' own debates
 * removed (a user's gold without debates: checks adapt a donor debate of the batch).
 * For each: the cross-validated AUC (logistic regression, 5 folds split by item), the noise
 * bound of chance (3 standard errors under H0, distinct items as the sample sizes) and the
 * features whose means differ most. `--no-words` leaves the debate's words out.
 *
 * Measured (this commit, deterministic): see docs/quality-control.md, "Checks that look like
 * real items". With template check debates the AUC was 0.996; with donor debates 0.646.
 */

const PAGES_PER_HALF = 500;
const TOP_WORDS = process.argv.includes('--no-words') ? 0 : 60;

const cases = await load(sampleFiles.escalations, 'escalations');
const gold = await load(sampleFiles.gold, 'gold');
const generated = generatedBatch(cases, 800);

function report(name: string, rows: readonly PageRow[]): void {
  const matrix = featureMatrix(rows, TOP_WORDS);
  const auc = crossValidatedAuc(matrix.vectors, matrix.labels, matrix.keys);
  const bound = noiseBound(matrix.labels, matrix.keys);
  const verdict = Math.abs(auc - 0.5) < bound ? 'within' : 'OUTSIDE';
  const gaps = largestGaps(matrix, 6).map((g) => `${g.name} ${g.gap.toFixed(2)}`);
  console.log(
    `${name}: AUC ${auc.toFixed(3)}, chance 0.5 ± ${bound.toFixed(3)} (${verdict} the noise bound); largest gaps: ${gaps.join(', ')}`,
  );
}

for (const [label, g] of [
  ['gold with its own debates', gold],
  ['gold without debates (donor debates)', withoutDebates(gold)],
] as const) {
  const sample = renderPageRows(cases, g, PAGES_PER_HALF, 'sample');
  const batch = renderPageRows(generated, g, PAGES_PER_HALF, 'generated');
  console.log(`— ${label}`);
  report('  sample (500 pages)', sample);
  report('  generated 800-case batch (500 pages)', batch);
  report('  both (1,000 pages)', [...sample, ...batch]);
}
