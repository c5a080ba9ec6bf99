import type { Judgment } from '../domain/cases.js';

/**
 * A group of LLM users of one model that the shared-error fit reads as the truth (pure, issue 35
 * item 3; decisions 0014 and 0016). Where several users of one model are the majority on many
 * items, the truth fitted from the votes is their verdict, and each one's shared-error factor
 * clears them.
 * The fit cannot leave that reading from within (its feedback is bounded so that a careful
 * crowd's agreement does not feed itself), so a group is put to it from outside:
 *
 * 1. **Seed groups** (`seedGroups`): pairs of workers who agree, on the items they both
 *    answered, beyond what each one's check accuracy allows if they answered
 *    independently (`pairFactor`: agreement at a rate uniform on [`oneModelAgreement`, 1]
 *    against independent answers at accuracies from the workers' checks, a posterior that is
 *    wide with few checks), joined into connected groups of `minGroup` or more (a copying pair
 *    is not a group, and a flag on a copier is a false flag). The pairs of one model's users
 *    form a star rather than a clique (they meet on few items), so groups are connected, not
 *    complete. Careful workers of high accuracy pass this too; the seed only proposes.
 * 2. **Two outcomes**: the fit is run as it is and once more with the group held in the LLM
 *    class in every round but the last (llm-evidence.ts), then with the workers that fit kept
 *    in the class held instead, until they stay (`refits`), and each outcome is scored by its
 *    likelihood (`outcomeLogLikelihood`): the votes under the outcome's classes, fitted
 *    accuracies, LLM accuracy α and follow rate β, and, apart, the gold checks, which the fit
 *    never sees. A group read as the truth has its members' accuracies at their agreement
 *    with the others; as LLM users, at α. Their checks say which.
 * 3. **A safe rule** (`prefersGroup`): the group outcome is taken only when the gold checks
 *    alone favour it by `minCheckFactor`, the votes and checks together by `minFactor`, and
 *    at least `minGroup` workers are in the LLM class there that were not before. A careful
 *    group's checks are as good as its agreement: seeded or not, its outcome scores no better
 *    on the checks, and the fit as it is stands.
 */

export interface LlmGroupPolicy {
  /** Fewest workers in a group (a pair is what copiers are). */
  readonly minGroup: number;
  /** Fewest items (and checks) a pair answered both before their agreement is weighed. */
  readonly minShared: number;
  /** Bayes factor of a pair's agreement (one model against independent answers) that joins them. */
  readonly pairFactor: number;
  /** One model's users agree at a rate uniform on [this, 1]. */
  readonly oneModelAgreement: number;
  /** Seed groups tried, largest first (each costs one more fit). */
  readonly maxGroups: number;
  /**
   * Fits of a group outcome at most: the seed held in the LLM class, then those the fit kept
   * there held instead, until they stay (careful workers in a seed leave it, other users of the
   * model join).
   */
  readonly refits: number;
  /**
   * The most the seed's own gold checks could favour it as one model's users (`checkGainBound`)
   * must reach this, or the group outcome is not fitted: a fit costs a whole batch's votes, and
   * careful groups are proposed in most batches.
   */
  readonly minSeedCheckFactor: number;
  /** Likelihood ratio of the gold checks alone, group outcome against the fit as it is, needed to take the group's. */
  readonly minCheckFactor: number;
  /** Likelihood ratio of votes and checks together needed to take the group outcome. */
  readonly minFactor: number;
}

export const DEFAULT_LLM_GROUP_POLICY: LlmGroupPolicy = {
  minGroup: 3,
  minShared: 5,
  pairFactor: 10,
  oneModelAgreement: 0.95,
  maxGroups: 2,
  refits: 3,
  minSeedCheckFactor: 10,
  minCheckFactor: 100,
  minFactor: 100,
};

export interface Answered {
  readonly worker: string;
  readonly item: string;
  readonly answer: Judgment;
}

/** A worker's answer to a gold check (an item of known truth the fit never sees). */
export interface CheckAnswer extends Answered {
  readonly expected: Judgment;
}

/** Per worker: gold checks answered and answered right. */
export function checkCounts(checks: readonly CheckAnswer[]): Map<string, { right: number; total: number }> {
  const out = new Map<string, { right: number; total: number }>();
  for (const c of firstAnswers(checks)) {
    const n = out.get(c.worker) ?? { right: 0, total: 0 };
    out.set(c.worker, { right: n.right + (c.answer === c.expected ? 1 : 0), total: n.total + 1 });
  }
  return out;
}

/**
 * Each worker's first answer to each item, in order (pure): the items seen kept per worker, with
 * no string made per answer (an LLM refit of a large batch takes every vote through here).
 */
export function firstAnswers<T extends Answered>(answers: readonly T[]): T[] {
  const seen = new Map<string, Set<string>>();
  return answers.filter((a) => {
    let items = seen.get(a.worker);
    if (!items) seen.set(a.worker, (items = new Set()));
    return items.has(a.item) ? false : (items.add(a.item), true);
  });
}

const GRID = 40;

/** The accuracy grid's points on [½, 0.99], the same for every worker. */
const ACCURACY_POINTS = Array.from({ length: GRID }, (_, i) => 0.5 + (0.49 * (i + 0.5)) / GRID);

/**
 * log r and log(1 − r) of the chance r = xy + (1 − x)(1 − y) that two independent workers of
 * accuracies x and y (grid points i and j, at GRID·i + j) agree: the same for every pair, so
 * computed once rather than in every factor (the numbers are those each factor computed).
 */
const [AGREE_LOG, DISAGREE_LOG] = (() => {
  const agree = new Float64Array(GRID * GRID);
  const disagree = new Float64Array(GRID * GRID);
  for (let i = 0; i < GRID; i++)
    for (let j = 0; j < GRID; j++) {
      const x = ACCURACY_POINTS[i]!;
      const y = ACCURACY_POINTS[j]!;
      const r = x * y + (1 - x) * (1 - y);
      agree[GRID * i + j] = Math.log(r);
      disagree[GRID * i + j] = Math.log1p(-r);
    }
  return [agree, disagree] as const;
})();

/** Memo of pure results by key, emptied when it holds `limit` entries (a bound on a long process's memory). */
export function boundedMemo<T>(limit: number, compute: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      if (known.size >= limit) known.clear();
      value = compute(key);
      known.set(key, value);
    }
    return value;
  };
}

/** Points and log weights of a worker's accuracy on [½, 0.99]: Beta(1 + right, 1 + wrong) from their checks. */
function accuracyGrid(right: number, wrong: number): { logW: number[] } {
  return accuracyGridOf(`${right} ${wrong}`);
}

// a batch's workers have few distinct check counts, and every pair factor weighs two of them
const accuracyGridOf = boundedMemo(10_000, (key) => {
  const [right, wrong] = key.split(' ').map(Number) as [number, number];
  const logs: number[] = [];
  for (let i = 0; i < GRID; i++) {
    const a = ACCURACY_POINTS[i]!;
    logs.push(right * Math.log(a) + wrong * Math.log1p(-a));
  }
  const norm = logSumExp(logs);
  return { logW: logs.map((l) => l - norm) };
});

/** log r and log(1 − r) at the model's agreement grid points on [lo, 1]. */
const modelGridOf = boundedMemo(100, (key) => {
  const lo = Number(key);
  const agree: number[] = [];
  const disagree: number[] = [];
  for (let i = 0; i < GRID; i++) {
    const r = Math.min(1 - 1e-9, lo + ((1 - lo) * (i + 0.5)) / GRID);
    agree.push(Math.log(r));
    disagree.push(Math.log1p(-r));
  }
  return { agree, disagree };
});

/**
 * Bayes factor of `agreed` agreements in `shared` answers of two workers: one model's users
 * (agreement uniform on [oneModelAgreement, 1]) against independent answers with accuracies a
 * and b from each one's checks, which agree with probability ab + (1 − a)(1 − b). A batch's
 * refits ask for the same counts again and again: the factors are kept (pure, the same numbers).
 */
export function pairFactor(
  agreed: number,
  shared: number,
  a: { right: number; total: number },
  b: { right: number; total: number },
  policy: LlmGroupPolicy = DEFAULT_LLM_GROUP_POLICY,
): number {
  return pairFactorOf(`${policy.oneModelAgreement} ${agreed} ${shared} ${a.right} ${a.total} ${b.right} ${b.total}`);
}

const pairFactorOf = boundedMemo(20_000, (key) => {
  const [lo = 0, k = 0, shared = 0, aRight = 0, aTotal = 0, bRight = 0, bTotal = 0] = key.split(' ').map(Number);
  const m = shared - k;
  const grid = modelGridOf(String(lo));
  const model: number[] = [];
  for (let i = 0; i < GRID; i++) model.push(k * grid.agree[i]! + m * grid.disagree[i]!);
  const ga = accuracyGrid(aRight, aTotal - aRight);
  const gb = accuracyGrid(bRight, bTotal - bRight);
  const independent: number[] = [];
  for (let i = 0; i < GRID; i++)
    for (let j = 0; j < GRID; j++)
      independent.push(ga.logW[i]! + gb.logW[j]! + k * AGREE_LOG[GRID * i + j]! + m * DISAGREE_LOG[GRID * i + j]!);
  return Math.exp(logSumExp(model) - Math.log(GRID) - logSumExp(independent));
});

export interface Pair {
  readonly a: string;
  readonly b: string;
  readonly shared: number;
  readonly agreed: number;
  readonly factor: number;
}

/**
 * Every pair of workers with `minShared` items in common, with their agreement's Bayes factor
 * (their checks set the accuracies it is weighed against). Gold checks are not counted as
 * items in common: a gold item meets most of a large batch's workers, and its pairs would grow
 * with their square; the group outcome's likelihood weighs the checks the members share.
 */
export function pairs(
  answers: readonly Answered[],
  checks: readonly CheckAnswer[],
  policy: LlmGroupPolicy = DEFAULT_LLM_GROUP_POLICY,
): Pair[] {
  const counts = checkCounts(checks);
  const byItem = new Map<string, Answered[]>();
  for (const a of firstAnswers(answers)) {
    const list = byItem.get(a.item) ?? [];
    list.push(a);
    byItem.set(a.item, list);
  }
  // a pair's tally by the two workers' numbers (no string made per pair and item)
  const number = new Map<string, number>();
  for (const list of byItem.values()) for (const a of list) if (!number.has(a.worker)) number.set(a.worker, number.size);
  const tally = new Map<number, { a: string; b: string; shared: number; agreed: number }>();
  for (const item of [...byItem.keys()].sort()) {
    const list = [...byItem.get(item)!].sort((x, y) => (x.worker < y.worker ? -1 : 1));
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const key = number.get(list[i]!.worker)! * number.size + number.get(list[j]!.worker)!;
        let t = tally.get(key);
        if (!t) tally.set(key, (t = { a: list[i]!.worker, b: list[j]!.worker, shared: 0, agreed: 0 }));
        t.shared++;
        if (list[i]!.answer === list[j]!.answer) t.agreed++;
      }
  }
  const none = { right: 0, total: 0 };
  // many pairs share their counts (few items, few checks): each factor is computed once
  const factors = new Map<string, number>();
  const factorOf = (t: { a: string; b: string; shared: number; agreed: number }) => {
    const [x, y] = [counts.get(t.a) ?? none, counts.get(t.b) ?? none].sort((u, v) => u.right - v.right || u.total - v.total);
    const key = `${t.agreed} ${t.shared} ${x!.right} ${x!.total} ${y!.right} ${y!.total}`;
    let factor = factors.get(key);
    if (factor === undefined) factors.set(key, (factor = pairFactor(t.agreed, t.shared, x!, y!, policy)));
    return factor;
  };
  return [...tally.values()]
    .filter((t) => t.shared >= policy.minShared)
    .map((t) => ({ ...t, factor: factorOf(t) }))
    .sort((x, y) => (x.a === y.a ? (x.b < y.b ? -1 : 1) : x.a < y.a ? -1 : 1));
}

/**
 * The seed groups: workers joined by pairs whose factor reaches `pairFactor`, as connected
 * groups of `minGroup` or more, largest first (then by their first worker), at most `maxGroups`.
 */
export function seedGroups(found: readonly Pair[], policy: LlmGroupPolicy = DEFAULT_LLM_GROUP_POLICY): string[][] {
  const parent = new Map<string, string>();
  const root = (w: string): string => {
    let r = w;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(w, r);
    return r;
  };
  for (const p of found) {
    if (p.factor < policy.pairFactor) continue;
    for (const w of [p.a, p.b]) if (!parent.has(w)) parent.set(w, w);
    const [x, y] = [root(p.a), root(p.b)].sort() as [string, string];
    if (x !== y) parent.set(y, x);
  }
  const groups = new Map<string, string[]>();
  for (const w of [...parent.keys()].sort()) {
    const r = root(w);
    groups.set(r, [...(groups.get(r) ?? []), w]);
  }
  return [...groups.values()]
    .filter((g) => g.length >= policy.minGroup)
    .sort((x, y) => y.length - x.length || (x[0]! < y[0]! ? -1 : 1))
    .slice(0, policy.maxGroups);
}

/** One outcome of the fit: who is in the LLM class, every worker's accuracy, and the fitted parameters. */
export interface Outcome {
  readonly llm: ReadonlySet<string>;
  readonly accuracy: ReadonlyMap<string, number>;
  /** P(LLM verdict = truth), P(LLM user answers the verdict), P(truth = yes). */
  readonly alpha: number;
  readonly beta: number;
  readonly rho: number;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/**
 * log P(votes) and log P(gold checks) under an outcome, its classes taken as given: each item
 * a truth y (P(yes) = ρ) and an LLM verdict ℓ (right with α), careful workers right with their
 * accuracy, LLM users answering ℓ with rate β. A check's truth is known; its ℓ is not, and the
 * LLM users who met on it share it (one model fails the same checks).
 */
export function outcomeLogLikelihood(
  answers: readonly Answered[],
  checks: readonly CheckAnswer[],
  outcome: Outcome,
): { votes: number; checks: number } {
  const alpha = clamp(outcome.alpha, 0.5, 0.98);
  const beta = clamp(outcome.beta, 0.6, 0.99);
  const rho = clamp(outcome.rho, 0.05, 0.95);
  const accuracy = (w: string) => clamp(outcome.accuracy.get(w) ?? 0.8, 0.05, 0.98);
  // log P(an item's answers | y, ℓ)
  const given = (list: readonly Answered[], y: Judgment, l: Judgment) => {
    let sum = 0;
    for (const a of list) {
      const p = outcome.llm.has(a.worker) ? beta : accuracy(a.worker);
      sum += Math.log((outcome.llm.has(a.worker) ? a.answer === l : a.answer === y) ? p : 1 - p);
    }
    return sum;
  };
  const grouped = <T extends Answered>(list: readonly T[]) => {
    const byItem = new Map<string, T[]>();
    for (const a of firstAnswers(list)) {
      const answers = byItem.get(a.item);
      if (answers) answers.push(a);
      else byItem.set(a.item, [a]);
    }
    return [...byItem.entries()].sort(([x], [y]) => (x < y ? -1 : 1));
  };
  const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');
  let votes = 0;
  for (const [, list] of grouped(answers)) {
    const terms: number[] = [];
    for (const y of ['yes', 'no'] as const)
      for (const l of ['yes', 'no'] as const)
        terms.push(Math.log(y === 'yes' ? rho : 1 - rho) + Math.log(y === l ? alpha : 1 - alpha) + given(list, y, l));
    votes += logSumExp(terms);
  }
  let checkSum = 0;
  for (const [, list] of grouped(checks)) {
    const y = list[0]!.expected;
    checkSum += logSumExp([Math.log(alpha) + given(list, y, y), Math.log(1 - alpha) + given(list, y, flip(y))]);
  }
  return { votes, checks: checkSum };
}

/**
 * How much the seed's own gold checks could favour reading it as one model's users, at best
 * (log likelihood ratio): the checks under the model's verdict at the most favourable accuracy
 * α (a grid on [½, 0.98], follow rate 0.99), against each member right with their accuracy in
 * the fit as it is. Where this is under `minSeedCheckFactor` the group outcome is not fitted: its
 * evidence would have to come mostly from other workers' checks, and a fit costs a whole
 * batch's votes.
 */
export function checkGainBound(seed: readonly string[], checks: readonly CheckAnswer[], asIs: Outcome): number {
  const members = new Set(seed);
  const mine = firstAnswers(checks.filter((c) => members.has(c.worker)));
  const accuracy = (w: string) => clamp(asIs.accuracy.get(w) ?? 0.8, 0.05, 0.98);
  let careful = 0;
  for (const c of mine) careful += Math.log(c.answer === c.expected ? accuracy(c.worker) : 1 - accuracy(c.worker));
  // per check item: the members who answered it right and wrong
  const byItem = new Map<string, { right: number; wrong: number }>();
  for (const c of mine) {
    const n = byItem.get(c.item) ?? { right: 0, wrong: 0 };
    if (c.answer === c.expected) n.right++;
    else n.wrong++;
    byItem.set(c.item, n);
  }
  const follow = Math.log(0.99);
  const stray = Math.log(0.01);
  let best = -Infinity;
  for (let alpha = 0.5; alpha <= 0.98 + 1e-9; alpha += 0.02) {
    let sum = 0;
    for (const { right, wrong } of byItem.values())
      sum += logSumExp([Math.log(alpha) + right * follow + wrong * stray, Math.log(1 - alpha) + right * stray + wrong * follow]);
    best = Math.max(best, sum);
  }
  return best - careful;
}

/**
 * The safe rule: the group outcome against the fit as it is. Taken only when the gold checks
 * alone favour it by `minCheckFactor`, votes and checks together by `minFactor`, and it puts
 * `minGroup` or more workers in the LLM class that the fit as it is did not.
 */
export function prefersGroup(
  asIs: { votes: number; checks: number },
  group: { votes: number; checks: number },
  added: number,
  policy: LlmGroupPolicy = DEFAULT_LLM_GROUP_POLICY,
): boolean {
  const checks = group.checks - asIs.checks;
  const total = checks + group.votes - asIs.votes;
  return added >= policy.minGroup && checks >= Math.log(policy.minCheckFactor) && total >= Math.log(policy.minFactor);
}

function logSumExp(xs: readonly number[]): number {
  const top = Math.max(...xs);
  if (top === -Infinity) return -Infinity;
  let s = 0;
  for (const x of xs) s += Math.exp(x - top);
  return top + Math.log(s);
}
