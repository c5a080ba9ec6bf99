import { describe, expect, it } from 'vitest';
import { renderExperimentForecast, replicateSeed, type ExperimentForecast } from '../../src/cli/simulate-experiment.js';
import { spawnCli, useDemoEnvironment } from '../demo/support.js';
import { importSampleWithTruth } from './sample-batch.js';

/**
 * `qrelay simulate --experiment debate` on the bundled sample (270 cases, preset dream,
 * its hidden labels as the truth) with the default population and qrelay's default quality
 * control, as a user runs it, against DREAM's human study (Fleiss κ 0.62 and balanced
 * accuracy 92.0% with the debate history, 0.50 and 87.3% without): κ and balanced accuracy
 * higher with the debate in the forecast, and the study's figures inside the forecast's
 * per-arm 95% intervals for one batch. κ is over every answer of an arm's workers to the
 * real items, counted or not, as the study's was over all its annotators' labels; balanced
 * accuracy is on the checks (the study's is on the items: docs/forecast.md says what that
 * changes). The simulation is deterministic under its seed (the default population's: no
 * seed chosen here).
 *
 * Ten replicates rather than the default five: the debate raises balanced accuracy on the
 * checks by about 2 points (easy checks leave less to gain than the escalated items), while
 * one replicate's difference moves by about 6 points with the few not-working workers each
 * arm draws; over ten the pooled difference's own Monte Carlo error is about 2 points.
 */

const e = useDemoEnvironment();

const STUDY = { debate: { kappa: 0.62, balancedAccuracy: 0.92 }, 'no-debate': { kappa: 0.5, balancedAccuracy: 0.873 } } as const;
const REPLICATES = 10;

describe('simulate --experiment debate against the DREAM human study', () => {
  it(
    'over its replicates: κ and balanced accuracy higher with the debate, the study’s figures in the intervals, each replicate as run alone',
    { timeout: 3_600_000 },
    async () => {
      const truth = await importSampleWithTruth(e);
      const cli = spawnCli(
        ['simulate', 'sample', '--truth', truth, '--experiment', 'debate', '--replicates', String(REPLICATES), '--json'],
        e.env,
      );
      expect((await cli.exited).code, cli.stderr()).toBe(0);
      const f = JSON.parse(cli.stdout()) as ExperimentForecast;
      const { arms, difference } = f.experiment;
      // the forecast as the text output prints it, for the record of a run
      const text = renderExperimentForecast(f);
      console.log(text);
      expect(text).toMatch(/^debate\s+[\d.]+\s+[\d.]+\s/m);
      expect(text).toMatch(/^no-debate\s+[\d.]+\s+[\d.]+\s/m);
      expect(text).toMatch(/^difference\s/m);
      expect(text).toMatch(new RegExp(`^power: of ${REPLICATES} simulated batches`, 'm'));

      // the simulated batches, each with its own seed from the run's, each one experiment on the whole sample
      expect(f.replicates.map((r) => r.seed)).toEqual(Array.from({ length: REPLICATES }, (_, i) => replicateSeed(f.seed, i)));
      expect(new Set(f.replicates.map((r) => r.seed)).size).toBe(REPLICATES);
      for (const r of f.replicates) {
        expect(r.forecast.hideDebate).toBe(false);
        expect(r.forecast.items).toBe(270);
        expect(r.experiment.arms.map((a) => a.arm)).toEqual(['debate', 'no-debate']);
        // the arms given in order of first pages, even to one at every step
        expect(r.arms.map((a) => a.rank)).toEqual(r.arms.map((_, i) => i));
        r.arms.forEach((_, i) => {
          const debateSoFar = r.arms.slice(0, i + 1).filter((a) => a.arm === 'debate').length;
          expect(Math.abs(2 * debateSoFar - (i + 1))).toBeLessThanOrEqual(1);
        });
        for (const a of r.experiment.arms) {
          expect(a.workers, `${r.seed} ${a.arm} workers`).toBeGreaterThan(0);
          expect(a.workers).toBeLessThanOrEqual(r.arms.filter((x) => x.arm === a.arm).length);
          expect(a.items, `${r.seed} ${a.arm} items`).toBeGreaterThan(0);
          expect(a.items).toBeLessThanOrEqual(270);
        }
      }
      // the forecast's value is the replicates' mean
      expect(arms.map((a) => a.arm)).toEqual(['debate', 'no-debate']);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      for (const s of ['balancedAccuracy', 'kappa'] as const)
        expect(difference[s].value!).toBeCloseTo(mean(f.replicates.map((r) => r.experiment.difference[s].value!)), 9);
      for (const s of ['balancedAccuracy', 'kappa', 'secondsPerItem'] as const) {
        const { share, tested, significant } = f.power[s];
        expect(tested).toBeLessThanOrEqual(REPLICATES);
        expect(share).toBe(tested === 0 ? null : significant / tested);
        const d = f.directions[s];
        expect(d.higher + d.lower + d.equal + d.undefined).toBe(REPLICATES);
      }
      const [debate, noDebate] = arms as [(typeof arms)[0], (typeof arms)[0]];

      // the study's direction: the debate raises both, in the forecast over the replicates
      expect(debate.kappa.value!, 'κ: debate vs no-debate').toBeGreaterThan(noDebate.kappa.value!);
      expect(debate.balancedAccuracy.value!, 'balanced accuracy: debate vs no-debate').toBeGreaterThan(noDebate.balancedAccuracy.value!);
      expect(difference.balancedAccuracy.value!).toBeCloseTo(debate.balancedAccuracy.value! - noDebate.balancedAccuracy.value!, 9);
      expect(difference.kappa.value!).toBeCloseTo(debate.kappa.value! - noDebate.kappa.value!, 9);
      for (const s of ['kappa', 'balancedAccuracy'] as const) {
        const study = STUDY.debate[s] - STUDY['no-debate'][s];
        const { low, high } = difference[s];
        expect(study, `difference ${s}: study ${study} vs forecast [${low}, ${high}]`).toBeGreaterThanOrEqual(low!);
        expect(study, `difference ${s}: study ${study} vs forecast [${low}, ${high}]`).toBeLessThanOrEqual(high!);
      }

      // its size: the study's figures inside the forecast's 95% intervals for one batch, arm by arm
      for (const a of arms) {
        const study = STUDY[a.arm];
        for (const s of ['kappa', 'balancedAccuracy'] as const) {
          const { low, high } = a[s];
          expect(low, `${a.arm} ${s} interval`).not.toBeNull();
          expect(study[s], `${a.arm} ${s}: study ${study[s]} vs forecast [${low}, ${high}]`).toBeGreaterThanOrEqual(low!);
          expect(study[s], `${a.arm} ${s}: study ${study[s]} vs forecast [${low}, ${high}]`).toBeLessThanOrEqual(high!);
        }
      }

      // deterministic, and replicates do not see each other: the first replicate run alone (same seed, same copy
      // name: the name seeds the private marketplace's ids) is the same experiment
      const once = spawnCli(
        ['simulate', 'sample', '--truth', truth, '--experiment', 'debate', '--replicates', '1', '--replace', '--json'],
        e.env,
      );
      expect((await once.exited).code, once.stderr()).toBe(0);
      const g = JSON.parse(once.stdout()) as ExperimentForecast;
      expect(g.replicates).toHaveLength(1);
      const [first] = f.replicates;
      expect({ seed: g.replicates[0]!.seed, arms: g.replicates[0]!.arms, experiment: g.replicates[0]!.experiment }).toEqual({
        seed: first!.seed,
        arms: first!.arms,
        experiment: first!.experiment,
      });
    },
  );

  it(
    'refuses --compare-debate and --hide-debate beside it, and --replicates without it or below 1, naming the option',
    { timeout: 300_000 },
    async () => {
      for (const flag of ['--compare-debate', '--hide-debate']) {
        const cli = spawnCli(['simulate', 'sample', '--experiment', 'debate', flag], e.env);
        expect((await cli.exited).code).not.toBe(0);
        expect(cli.stderr()).toContain('--experiment debate sets the debate per arm; leave out --compare-debate and --hide-debate');
      }
      for (const value of ['0', '2.5', 'x']) {
        const cli = spawnCli(['simulate', 'sample', '--experiment', 'debate', '--replicates', value], e.env);
        expect((await cli.exited).code).not.toBe(0);
        expect(cli.stderr()).toContain(`option '--replicates <n>' argument '${value}' is invalid`);
      }
      const alone = spawnCli(['simulate', 'sample', '--replicates', '3'], e.env);
      expect((await alone.exited).code).not.toBe(0);
      expect(alone.stderr()).toContain('--replicates 3 applies to --experiment debate only');
    },
  );
});
