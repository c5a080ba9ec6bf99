import type { DebateTurn, GoldItem } from '../domain/cases.js';
import { checkDebate, focalSentence, sentencesOf } from './check-debate.js';
import { seededRng, type Rng } from './random.js';

/**
 * Where an attention check's debate comes from, best first (issue 16, item 3: a check must
 * look like a real item, so its debate must be in the style of the batch's own debates):
 *
 * - `gold`: the gold item's own `debate` (docs/input-formats.md), e.g. `qrelay debate` run on
 *   the gold items, or DREAM's debate records for judged chunks; shown as it is.
 * - `derived`: one of the batch's real debates (a "donor"), adapted to the check's own query
 *   and chunk: its quotes become sentences of the check's chunk (a quote the check's chunk
 *   holds too stays; each other one becomes the check's sentence nearest it in length), its
 *   query and answers the check's.
 *   The donor is drawn uniformly from the real items with the check's query (from all real
 *   items when none has it), never from the same page: so the agents' wording, the
 *   debate's shape and its quoting follow the batch's own debates by construction. Any
 *   filter on the donors (e.g. "reasoning that fits the check's chunk best") would skew
 *   that distribution towards the blandest debates, which a classifier then spots
 *   (measured: AUC 0.68 with such a filter). Nothing reads the gold label.
 * - `template`: check-debate.ts's template, only when the batch has no debate to adapt.
 *
 * Pure and deterministic: the same seed, gold item, pool and page give the same debate.
 */

export const CHECK_DEBATE_SOURCES = ['gold', 'derived', 'template'] as const;
export type CheckDebateSource = (typeof CHECK_DEBATE_SOURCES)[number];

/** A real item of the batch whose debate a check may adapt. */
export interface DebateDonor {
  key: string;
  query: string;
  answers: readonly string[];
  chunk: string;
  debate: readonly DebateTurn[];
}

export interface DonorPool {
  all: readonly DebateDonor[];
  byQuery: ReadonlyMap<string, readonly DebateDonor[]>;
  /** Each donor's chunk as content words, by key. */
  chunkWords: ReadonlyMap<string, ReadonlySet<string>>;
}

const STOP_WORDS = new Set(
  'a an and are as at be but by did do does for from has have how i in is it its not no of on or so that the their this to was were what when where which who whom why with'.split(
    ' ',
  ),
);
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const contentWords = (text: string) => new Set(wordsOf(text).filter((w) => !STOP_WORDS.has(w)));
/** How a query is compared across items: its text as the page shows it, case and spacing aside. */
export const queryText = (query: string) => query.trim().replace(/\s+/gu, ' ').toLowerCase();

/** Indexes the batch's real debates once per plan. */
export function donorPool(donors: readonly DebateDonor[]): DonorPool {
  const all = donors.filter((d) => d.debate.length > 0);
  const byQuery = new Map<string, DebateDonor[]>();
  for (const d of all) {
    const q = queryText(d.query);
    const same = byQuery.get(q);
    if (same) same.push(d);
    else byQuery.set(q, [d]);
  }
  return { all, byQuery, chunkWords: new Map(all.map((d) => [d.key, contentWords(d.chunk)])) };
}

type CheckGold = Pick<GoldItem, 'query_id' | 'chunk_id' | 'query' | 'answers' | 'chunk'> & { debate?: readonly DebateTurn[] | undefined };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const listed = (answers: readonly string[]) => answers.map((a) => `"${a}"`).join(' or ');

/**
 * The check's sentences in the order a donor's quotes take them: the focal sentence first,
 * then by how many query words they share (chunk order on a tie).
 */
function rankedSentences(gold: CheckGold): string[] {
  const focal = focalSentence(gold).sentence;
  const query = new Set(wordsOf(gold.query).filter((w) => !STOP_WORDS.has(w)));
  const overlap = (s: string) => new Set(wordsOf(s).filter((w) => query.has(w))).size;
  const rest = sentencesOf(gold.chunk)
    .filter((s) => s !== focal)
    .map((s, i) => ({ s, i, o: overlap(s) }))
    .sort((a, b) => b.o - a.o || a.i - b.i)
    .map((x) => x.s);
  return [focal, ...rest];
}

/** The donor's debate, told about the check's query and chunk (see the module comment). */
export function adaptDebate(donor: DebateDonor, gold: CheckGold): DebateTurn[] {
  const sentences = rankedSentences(gold);
  const quotes = [...new Set(donor.debate.flatMap((t) => t.references))];
  // a quote the check's chunk also holds (passages of one corpus overlap) stays as it is
  const kept = new Set(quotes.filter((q) => q.trim().length > 0 && gold.chunk.includes(q)));
  const used = new Set<string>();
  // each other quote becomes the check's sentence nearest it in length (rank order on a
  // tie): the marks a check shows then measure like the batch's own (taking the focal
  // sentence first made checks' highlights shorter: gold answer sentences are shorter
  // than the sentences real debates quote)
  const closest = (q: string) => {
    const open = sentences.filter((s) => !kept.has(s) && !used.has(s));
    const pool = open.length > 0 ? open : sentences;
    const best = pool.reduce((x, y) => (Math.abs(y.length - q.length) < Math.abs(x.length - q.length) ? y : x));
    used.add(best);
    return best;
  };
  const quoteOf = new Map(quotes.map((q) => [q, kept.has(q) ? q : closest(q)]));
  const replacement = new Map<string, string>();
  const answerFor = (i: number) => gold.answers[Math.min(i, gold.answers.length - 1)] ?? 'the answer';
  // longest first, so that a quote holding an answer is replaced whole
  const pairs: Array<[string, string]> = [
    ...quotes.filter((q) => !kept.has(q)).map((q): [string, string] => [q, quoteOf.get(q) as string]),
    [donor.query, gold.query],
    ...(donor.answers.length > 1
      ? [[listed(donor.answers), gold.answers.length > 0 ? listed(gold.answers) : '"the answer"'] as [string, string]]
      : []),
    ...donor.answers.map((a, i): [string, string] => [a, answerFor(i)]),
  ];
  const usable = pairs.filter(([from]) => from.trim().length > 0).sort((a, b) => b[0].length - a[0].length);
  for (const [from, to] of usable) if (!replacement.has(from.toLowerCase())) replacement.set(from.toLowerCase(), to);
  const pattern = usable.length === 0 ? undefined : new RegExp(usable.map(([from]) => escapeRegExp(from)).join('|'), 'giu');
  const rewrite = (text: string) => (pattern ? text.replace(pattern, (m) => replacement.get(m.toLowerCase()) ?? m) : text);
  return donor.debate.map((turn) => ({
    ...turn,
    reasoning: rewrite(turn.reasoning),
    references: turn.references.map((r) => quoteOf.get(r) ?? r),
  }));
}

/** Share of the two chunks' distinct content words they have in common (Jaccard). */
function chunkSimilarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  return common / Math.max(1, a.size + b.size - common);
}

function chooseDonor(pool: DonorPool, gold: CheckGold, exclude: ReadonlySet<string>, rng: Rng): DebateTurn[] | undefined {
  const open = (donors: readonly DebateDonor[]) => donors.filter((d) => !exclude.has(d.key));
  const sameQuery = open(pool.byQuery.get(queryText(gold.query)) ?? []);
  const candidates = rng.shuffle(sameQuery.length > 0 ? sameQuery : open(pool.all));
  // the donor whose chunk is most like the check's (the first on a tie, candidates shuffled):
  // what its agents say about their chunk then holds for the check's chunk too
  const words = contentWords(gold.chunk);
  let best: DebateDonor | undefined;
  let bestScore = -1;
  for (const d of candidates) {
    const score = chunkSimilarity(words, pool.chunkWords.get(d.key) ?? new Set());
    if (score > bestScore) [best, bestScore] = [d, score];
  }
  return best && adaptDebate(best, gold);
}

/**
 * The debate an attention check shows, and where it came from. `exclude` holds the keys of
 * the real items on the same page (a page never shows a debate twice); `seed` is the plan's.
 */
export function checkDebateFor(
  gold: CheckGold,
  options: { seed: string; pool: DonorPool; exclude: ReadonlySet<string> },
): { debate: DebateTurn[]; source: CheckDebateSource } {
  if (gold.debate !== undefined && gold.debate.length > 0) return { debate: [...gold.debate], source: 'gold' };
  const rng = seededRng(
    `${options.seed}\u0000check-donor\u0000${gold.query_id}\u0000${gold.chunk_id}\u0000${[...options.exclude].join(',')}`,
  );
  const derived = chooseDonor(options.pool, gold, options.exclude, rng);
  if (derived !== undefined) return { debate: derived, source: 'derived' };
  return { debate: checkDebate(gold, options.seed), source: 'template' };
}
