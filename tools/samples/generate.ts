/**
 * Generates the bundled sample benchmark under samples/ (see samples/README.md, which
 * this script writes too). Deterministic: the same seed gives byte-identical files.
 *
 *   node --import tsx tools/samples/generate.ts [--seed 2026] [--out samples]
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPassages, buildQueries, type Pair, type Passage, type Query } from './corpus.js';
import { consensusRound, escalatedDebate, goldDebates, type Turn } from './debates.js';
import { standings, swaps, type Qrels, type Standing } from './evaluate.js';
import { runSystems, type System } from './retrieval.js';
import { Rng } from './rng.js';
import { select, type Selection } from './selection.js';
import { topics } from './topics/index.js';
import { readme, type Summary } from './readme.js';

const DATASET = 'sample';
const RUN_DEPTH = 100;

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const seed = Number(option('seed', '2026'));
const out = resolve(root, option('out', 'samples'));

const jsonl = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function write(path: string, content: string): void {
  mkdirSync(dirname(join(out, path)), { recursive: true });
  writeFileSync(join(out, path), content);
}

function escalatedCase(rng: Rng, pair: Pair) {
  return {
    query_id: pair.query.id,
    query: pair.query.spec.text,
    answers: pair.query.spec.answers,
    chunk_id: pair.passage.id,
    chunk: pair.passage.text,
    dataset: DATASET,
    debate: escalatedDebate(rng, pair),
    hidden_label: pair.truth,
  };
}

/** BRIDGE rows spell labels and stances in the ways such exports do. */
const SPELLINGS: { yes: unknown; no: unknown }[] = [
  { yes: 'relevant', no: 'irrelevant' },
  { yes: 1, no: 0 },
  { yes: 'Yes', no: 'No' },
  { yes: true, no: false },
];

function bridgeRow(rng: Rng, pair: Pair, turns: Turn[], consensus: boolean) {
  const spelling = rng.pick(SPELLINGS);
  const rounds: Record<string, unknown> = {};
  for (const round of [1, 2]) {
    const a = turns.find((t) => t.round === round && t.agent === 'A');
    const b = turns.find((t) => t.round === round && t.agent === 'B');
    const agent = (t: Turn) => ({
      stance: t.stance === 'irrelevant' && rng.chance(0.3) ? 'not relevant' : t.stance,
      reasoning: t.reasoning,
      label: spelling[t.label],
      ...(t.references.length > 0 ? { references: t.references } : {}),
    });
    rounds[`round_${round}`] = a && b ? { agent_a: agent(a), agent_b: agent(b) } : null;
  }
  return {
    q_id: pair.query.id,
    question: pair.query.spec.text,
    answers: pair.query.spec.answers,
    doc_id: pair.passage.id,
    text: pair.passage.text,
    dataset: DATASET,
    ...rounds,
    final_label: consensus ? spelling[pair.truth] : null,
    consensus,
    ...(consensus ? {} : { hidden_label: pair.truth }),
  };
}

function qrelsOf(pairs: readonly Pair[]): Qrels {
  const qrels: Qrels = new Map();
  for (const p of pairs) {
    if (!qrels.has(p.query.id)) qrels.set(p.query.id, new Map());
    qrels.get(p.query.id)!.set(p.passage.id, p.truth === 'yes' ? 1 : 0);
  }
  return qrels;
}

function runFile(system: System, queries: readonly Query[]): string {
  const lines: string[] = [];
  for (const q of queries) {
    system.rankings
      .get(q)!
      .slice(0, RUN_DEPTH)
      .filter((r) => r.score > 0)
      .forEach((r, i) => lines.push(`${q.id} Q0 ${r.passage.id} ${i + 1} ${r.score.toFixed(6)} ${system.tag}`));
  }
  return lines.join('\n') + '\n';
}

function summary(selection: Selection, passages: readonly Passage[], queries: readonly Query[]): Summary {
  const yes = (pairs: readonly Pair[]) => pairs.filter((p) => p.truth === 'yes').length;
  const baseRelevant = new Set(selection.base.filter((p) => p.truth === 'yes').map((p) => `${p.query.id} ${p.passage.id}`));
  const holes = queries.flatMap((q) => passages.filter((p) => p.sentences.some((s) => q.spec.direct.includes(s) || q.spec.hard.some((h) => h.label === 'yes' && h.text === s))).map((p) => `${q.id} ${p.id}`)).filter((k) => !baseRelevant.has(k));
  return {
    passages: passages.length,
    queries: queries.length,
    topics: topics.length,
    domains: new Set(topics.map((t) => t.domain)).size,
    baseJudged: selection.base.length,
    baseRelevant: yes(selection.base),
    holes: holes.length,
    escalated: selection.escalated.length,
    escalatedYes: yes(selection.escalated),
    escalatedHard: selection.escalated.filter((p) => p.kind === 'hard').length,
    consensus: selection.consensus.length,
    consensusYes: yes(selection.consensus),
    gold: selection.gold.length,
    goldYes: yes(selection.gold),
    bridgeEscalated: selection.bridgeEscalated.length,
    bridgeConsensus: selection.bridgeConsensus.length,
  };
}

function main(): void {
  const rng = new Rng(seed);
  const queries = buildQueries(topics);
  const passages = buildPassages(rng, topics);
  const systems = runSystems(rng, queries, passages);
  const options = { poolDepth: 15, goldPerPolarity: 36, stubbornYes: 15, stubbornNo: 20, bridgeEscalations: 8, bridgeConsensus: 4 };
  const selection = select(rng, queries, passages, systems, options);

  const filled = qrelsOf([...selection.base, ...selection.consensus, ...selection.escalated, ...selection.bridgeEscalated, ...selection.bridgeConsensus]);
  const table: Standing[] = standings(systems, queries, qrelsOf(selection.base), filled);
  const flipped = swaps(table);
  if (flipped.length === 0) throw new Error('no pair of systems swaps places when the holes are filled; the demo needs one');

  rmSync(join(out, 'runs'), { recursive: true, force: true });
  write('corpus.jsonl', jsonl([...passages].sort((a, b) => (a.id < b.id ? -1 : 1)).map((p) => ({ _id: p.id, title: p.title, text: p.text }))));
  write('queries.jsonl', jsonl(queries.map((q) => ({ _id: q.id, text: q.spec.text, answers: q.spec.answers }))));
  const rel = (p: Pair) => (p.truth === 'yes' ? 1 : 0);
  write('qrels/base.tsv', ['query-id\tcorpus-id\tscore', ...selection.base.map((p) => `${p.query.id}\t${p.passage.id}\t${rel(p)}`)].join('\n') + '\n');
  write('qrels/base.trec', selection.base.map((p) => `${p.query.id} 0 ${p.passage.id} ${rel(p)}`).join('\n') + '\n');
  const escalations = selection.escalated.map((p) => escalatedCase(rng, p));
  write('escalations.jsonl', jsonl(escalations));
  write(
    'escalations.bridge.jsonl',
    jsonl([
      ...selection.bridgeEscalated.map((p) => bridgeRow(rng, p, escalatedDebate(rng, p), false)),
      ...selection.bridgeConsensus.map((p) => bridgeRow(rng, p, consensusRound(rng, p), true)),
    ]),
  );
  write('consensus.jsonl', jsonl(selection.consensus.map((p) => ({ query_id: p.query.id, chunk_id: p.passage.id, label: p.truth, dataset: DATASET }))));
  // drawn after every other file's debates, so that adding them changed no other file
  const crossed = escalations.filter((c) => c.debate.some((t) => t.round === 2 && t.agent === 'A' && t.label === 'no')).length;
  const stubborn = selection.escalated.filter((p) => p.kind !== 'hard').length;
  const debates = goldDebates(rng, selection.gold, { crossing: crossed / escalations.length, generic: stubborn / escalations.length });
  write(
    'gold.jsonl',
    jsonl(
      selection.gold.map((p, i) => ({
        query_id: p.query.id,
        query: p.query.spec.text,
        answers: p.query.spec.answers,
        chunk_id: p.passage.id,
        chunk: p.passage.text,
        label: p.truth,
        dataset: DATASET,
        domain: p.query.topic.domain,
        debate: debates[i],
      })),
    ),
  );
  for (const system of systems) write(`runs/${system.tag}.trec`, runFile(system, queries));

  const counts = summary(selection, passages, queries);
  write('README.md', readme({ seed, counts, table, flipped, systems, runDepth: RUN_DEPTH, poolDepth: options.poolDepth }));

  const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const bytes = files.reduce((s, f) => s + statSync(join(f.parentPath, f.name)).size, 0);
  console.log(`wrote ${files.length} files to ${relative(process.cwd(), out) || '.'} (${(bytes / 1024).toFixed(0)} KiB), seed ${seed}`);
  console.log(JSON.stringify(counts));
  for (const s of table) console.log(`${s.tag.padEnd(8)} nDCG@10 base ${s.before.toFixed(4)} (#${s.rankBefore})  filled ${s.after.toFixed(4)} (#${s.rankAfter})`);
  console.log(`swapped pairs: ${flipped.map((p) => p.join(' <-> ')).join(', ')}`);
}

main();
