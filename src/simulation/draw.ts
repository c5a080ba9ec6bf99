import { createHash } from 'node:crypto';
import type { WorkerProfile } from '@qrelay/marketplace';
import type { PopulationProfile, WorkerKind } from './population.js';
import { beta, categorical, logNormal, seededRng, type Rng } from './random.js';

/** The workers of a population profile, drawn from its seed (pure). */

export interface SimWorker {
  index: number;
  workerId: string;
  displayName: string;
  kind: WorkerKind;
  /** P(yes | truth yes) and P(no | truth no) when answering on their own (diligent; LLM-like without a model label). */
  accuracy: { relevant: number; notRelevant: number };
  /** LLM-assisted workers: P(answer = the LLM's verdict). */
  llmAgreement: number;
  /** P(reading an item's debate carefully). */
  careful: number;
  /** The worker's median seconds per item, and the spread around it. */
  medianItemSeconds: number;
  itemSigma: number;
  /** P(a qualification test question answered right). */
  qualificationSkill: number;
  profile: WorkerProfile;
  /** Careful-then-careless workers: the assignments worked carefully before the change. */
  changeAfter?: number;
  /** Copiers: the pair they answer with (the pair's number, from 0). */
  pair?: number;
}

const FAST_KINDS: readonly WorkerKind[] = ['spammer', 'alwaysYes', 'alwaysNo'];

/** A short tag of the seed for worker ids and names: two populations with different seeds do not share accounts. */
export function seedTag(seed: string): string {
  return BigInt(`0x${createHash('sha256').update(seed).digest('hex').slice(0, 12)}`)
    .toString(36)
    .toUpperCase()
    .slice(0, 5)
    .padStart(5, '0');
}

/**
 * Worker kinds are dealt by largest remainder, so a population of 50 with a 10% share of
 * spammers has exactly 5 (a random draw would make small populations miss whole kinds),
 * then shuffled by the seed.
 */
export function dealKinds(profile: PopulationProfile, rng: Rng): WorkerKind[] {
  const { spammer, alwaysYes, alwaysNo, llm, fatigue, quitter, honest, careless, copier } = profile.shares;
  const shares: [WorkerKind, number][] = [
    ['spammer', spammer],
    ['alwaysYes', alwaysYes],
    ['alwaysNo', alwaysNo],
    ['llm', llm],
    ['fatigue', fatigue],
    ['quitter', quitter],
    ['honest', honest],
    ['careless', careless],
    ['copier', copier],
    ['diligent', Math.max(0, 1 - spammer - alwaysYes - alwaysNo - llm - fatigue - quitter - honest - careless - copier)],
  ];
  const exact = shares.map(([kind, s]) => ({ kind, n: s * profile.size }));
  const counts = exact.map((e) => Math.floor(e.n));
  let left = profile.size - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, r: e.n - Math.floor(e.n) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    counts[i]!++;
    left--;
  }
  const kinds = exact.flatMap((e, i) => Array<WorkerKind>(counts[i]!).fill(e.kind));
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  return kinds;
}

export function drawPopulation(profile: PopulationProfile): SimWorker[] {
  const tag = seedTag(profile.seed);
  const kinds = dealKinds(profile, seededRng(`${profile.seed}:kinds`));
  const width = String(profile.size - 1).length;
  // copiers are paired in the order they were dealt
  const pairOf = new Map<number, number>();
  kinds.forEach((kind, index) => {
    if (kind === 'copier') pairOf.set(index, Math.floor(pairOf.size / 2));
  });
  const uniform = (rng: Rng, r: { min: number; max: number }) => r.min + (r.max - r.min) * rng.next();
  return kinds.map((kind, index) => {
    const careRng = seededRng(`${profile.seed}:care:${index}`);
    const rng = seededRng(`${profile.seed}:worker:${index}`);
    const number = String(index).padStart(width, '0');
    const approvedBefore = Math.round(logNormal(rng, profile.profile.approvedHits.median, profile.profile.approvedHits.sigma));
    const approvalRate = beta(rng, profile.profile.approvalRate.alpha, profile.profile.approvalRate.beta);
    const locale =
      profile.profile.locales[
        categorical(
          rng,
          profile.profile.locales.map((l) => l.share),
        )
      ]!;
    const pair = pairOf.get(index);
    // the new kinds' own draws come from their own generators, so every earlier draw of a worker stays as it was
    const own =
      kind === 'honest'
        ? uniform(seededRng(`${profile.seed}:honest:${index}`), profile.honest.accuracy)
        : pair !== undefined
          ? uniform(seededRng(`${profile.seed}:pair:${pair}`), profile.copying.accuracy)
          : undefined;
    const after = profile.careless.after;
    const changeAfter =
      kind === 'careless'
        ? after.min + Math.floor(seededRng(`${profile.seed}:careless:${index}`).next() * (after.max - after.min + 1))
        : undefined;
    const drawn = {
      relevant: beta(rng, profile.accuracy.relevant.alpha, profile.accuracy.relevant.beta),
      notRelevant: beta(rng, profile.accuracy.notRelevant.alpha, profile.accuracy.notRelevant.beta),
    };
    const fast = FAST_KINDS.includes(kind) ? profile.workTime.fastFactor : kind === 'llm' ? profile.llm.timeFactor : 1;
    return {
      index,
      workerId: `A${profile.idPrefix}${tag}${number}`,
      displayName: `sim-${profile.idPrefix.toLowerCase()}-${tag.toLowerCase()}-${number}`,
      kind,
      accuracy: own === undefined ? drawn : { relevant: own, notRelevant: own },
      llmAgreement: profile.llmAgreement,
      // drawn last, so that adding it left every earlier draw of a worker as it was
      careful: beta(careRng, profile.debate.careful.alpha, profile.debate.careful.beta),
      medianItemSeconds: logNormal(rng, profile.workTime.medianSeconds, profile.workTime.workerSigma) * fast,
      itemSigma: profile.workTime.sigma,
      qualificationSkill: beta(rng, profile.qualificationSkill.alpha, profile.qualificationSkill.beta),
      profile: {
        locale: { Country: locale.country, ...(locale.subdivision ? { Subdivision: locale.subdivision } : {}) },
        adult: rng.next() < profile.profile.adultShare,
        masters: rng.next() < profile.profile.mastersShare,
        // the approval rate applies to the earlier work: submitted = approved / rate
        baseline: {
          approved: approvedBefore,
          submitted: approvalRate > 0 ? Math.max(approvedBefore, Math.round(approvedBefore / approvalRate)) : approvedBefore,
        },
      },
      ...(changeAfter !== undefined && { changeAfter }),
      ...(pair !== undefined && { pair }),
    };
  });
}
