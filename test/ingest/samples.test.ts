import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finalLabels, type EscalatedCase, type GoldItem } from '../../src/domain/cases.js';
import { readRecords, validateFile, type IngestKind, type RecordOf } from '../../src/ingest/index.js';
import { paths } from '../../src/paths.js';

const sample = (name: string) => join(paths.samples, name);
const lines = (name: string) => readFileSync(sample(name), 'utf8').trimEnd().split('\n');

async function all<K extends IngestKind>(name: string, kind: K): Promise<RecordOf<K>[]> {
  const out: RecordOf<K>[] = [];
  for await (const { record } of readRecords(sample(name), kind)) out.push(record);
  return out;
}

const corpus = new Map(
  lines('corpus.jsonl').map((l) => {
    const doc = JSON.parse(l) as { _id: string; title: string; text: string };
    return [doc._id, doc] as const;
  }),
);
const queries = new Map(
  lines('queries.jsonl').map((l) => {
    const q = JSON.parse(l) as { _id: string; text: string; answers: string[] };
    return [q._id, q] as const;
  }),
);

describe('the bundled samples', () => {
  it('validate with the ingest parsers, with the documented counts', async () => {
    const expected: [string, IngestKind, number, number][] = [
      ['escalations.jsonl', 'escalations', 270, 0],
      ['escalations.bridge.jsonl', 'escalations', 8, 4],
      ['escalations.bridge.jsonl', 'consensus', 4, 8],
      ['consensus.jsonl', 'consensus', 822, 0],
      ['gold.jsonl', 'gold', 72, 0],
    ];
    for (const [file, kind, records, skipped] of expected) {
      const report = await validateFile(sample(file), kind);
      expect(report, `${file} as ${kind}`).toMatchObject({ ok: true, errors: [], records, skipped, duplicates: 0 });
    }
    expect((await validateFile(sample('escalations.bridge.jsonl'), 'escalations')).format).toBe('bridge');
  });

  it('hold a corpus of 750 passages and 50 queries with 1-3 answers', () => {
    expect(corpus.size).toBe(750);
    expect(queries.size).toBe(50);
    for (const q of queries.values()) expect(q.answers.length).toBeGreaterThanOrEqual(1);
    for (const q of queries.values()) expect(q.answers.length).toBeLessThanOrEqual(3);
  });

  it('escalate real disagreements: 2 rounds, final labels apart, verbatim quotes, the chunk of the corpus', async () => {
    const cases: EscalatedCase[] = await all('escalations.jsonl', 'escalations');
    for (const c of cases) {
      const where = `${c.query_id}/${c.chunk_id}`;
      expect(
        c.debate.map((t) => `${t.round}${t.agent}:${t.stance}`),
        where,
      ).toEqual(['1A:relevant', '1B:irrelevant', '2A:relevant', '2B:irrelevant']);
      const final = finalLabels(c.debate);
      expect(final.get('A'), where).not.toBe(final.get('B'));
      for (const ref of c.debate.flatMap((t) => t.references)) expect(c.chunk, where).toContain(ref);
      expect(corpus.get(c.chunk_id)?.text, where).toBe(c.chunk);
      expect(queries.get(c.query_id)?.text, where).toBe(c.query);
    }
    const yes = cases.filter((c) => c.hidden_label === 'yes').length;
    expect(cases.every((c) => c.hidden_label !== undefined)).toBe(true);
    expect(yes / cases.length).toBeGreaterThan(0.3);
    expect(yes / cases.length).toBeLessThan(0.5);
  });

  it('offer gold items of both polarities on every domain', async () => {
    const gold: GoldItem[] = await all('gold.jsonl', 'gold');
    expect(gold.filter((g) => g.label === 'yes')).toHaveLength(36);
    expect(gold.filter((g) => g.label === 'no')).toHaveLength(36);
    const domains = new Set(lines('gold.jsonl').map((l) => (JSON.parse(l) as { domain: string }).domain));
    expect(domains.size).toBeGreaterThanOrEqual(10);
    for (const g of gold) expect(corpus.get(g.chunk_id)?.text).toBe(g.chunk);
  });

  it("give each gold item its own debate, a disagreement like an escalated one's, crossed as often within each label", async () => {
    const gold: GoldItem[] = await all('gold.jsonl', 'gold');
    const cases: EscalatedCase[] = await all('escalations.jsonl', 'escalations');
    const crossed = (debate: EscalatedCase['debate']) => finalLabels(debate).get('A') === 'no';
    for (const g of gold) {
      const where = `gold ${g.query_id}/${g.chunk_id}`;
      const debate = g.debate ?? [];
      expect(
        debate.map((t) => `${t.round}${t.agent}:${t.stance}`),
        where,
      ).toEqual(['1A:relevant', '1B:irrelevant', '2A:relevant', '2B:irrelevant']);
      const final = finalLabels(debate);
      expect(final.get('A'), where).not.toBe(final.get('B'));
      // written for its own chunk: agent A quotes a sentence of it, every quote verbatim
      expect(debate[0]?.references.length, where).toBeGreaterThan(0);
      for (const ref of debate.flatMap((t) => t.references)) expect(g.chunk, where).toContain(ref);
      expect(debate[0]?.reasoning, where).not.toBe('');
    }
    // which agent says yes tells the label nothing: the escalated cases' crossed share (32 of
    // 270) within each gold label, rounded
    const share = cases.filter((c) => crossed(c.debate)).length / cases.length;
    for (const label of ['yes', 'no'] as const) {
      const same = gold.filter((g) => g.label === label);
      expect(same.filter((g) => crossed(g.debate ?? [])).length, label).toBe(Math.round(same.length * share));
    }
  });

  it('keep escalations, consensus labels, BRIDGE rows and gold items apart, and off the judged pairs they fill', async () => {
    const pairs = async (file: string, kind: IngestKind) => (await all(file, kind)).map((r) => `${r.query_id} ${r.chunk_id}`);
    const groups = [
      await pairs('escalations.jsonl', 'escalations'),
      await pairs('escalations.bridge.jsonl', 'escalations'),
      await pairs('escalations.bridge.jsonl', 'consensus'),
      await pairs('consensus.jsonl', 'consensus'),
      (await all('gold.jsonl', 'gold')).filter((g) => g.label === 'no').map((g) => `${g.query_id} ${g.chunk_id}`),
    ];
    const judged = lines('qrels/base.trec').map((l) =>
      l
        .split(' ')
        .filter((_, i) => i === 0 || i === 2)
        .join(' '),
    );
    const everything = [...groups.flat(), ...judged];
    expect(new Set(everything).size).toBe(everything.length);
  });

  it('fill holes: consensus labels add relevant pairs the base qrels never judged', async () => {
    const consensus = await all('consensus.jsonl', 'consensus');
    expect(consensus.filter((c) => c.label === 'yes').length).toBeGreaterThan(100);
    const base = lines('qrels/base.tsv');
    expect(base[0]).toBe('query-id\tcorpus-id\tscore');
    expect(base.slice(1).map((l) => l.split('\t').join(' '))).toEqual(lines('qrels/base.trec').map((l) => l.replace(' 0 ', ' ')));
  });

  it('ship 5 TREC runs over the corpus, at most 100 passages per query', () => {
    const runs = readdirSync(sample('runs')).sort();
    expect(runs).toEqual(['bm25.trec', 'dense.trec', 'hybrid.trec', 'overlap.trec', 'rerank.trec']);
    for (const run of runs) {
      const perQuery = new Map<string, number>();
      const bad: string[] = [];
      for (const line of lines(`runs/${run}`)) {
        const [qid = '', q0, docid = '', rank, score, tag, ...rest] = line.split(' ');
        const fine =
          rest.length === 0 &&
          q0 === 'Q0' &&
          queries.has(qid) &&
          corpus.has(docid) &&
          Number(rank) === (perQuery.get(qid) ?? 0) + 1 &&
          Number.isFinite(Number(score)) &&
          tag === run.replace('.trec', '');
        if (!fine) bad.push(line);
        perQuery.set(qid, Number(rank));
      }
      expect(bad, run).toEqual([]);
      expect(perQuery.size).toBe(50);
      expect(Math.max(...perQuery.values())).toBeLessThanOrEqual(100);
    }
  });

  it('carry markup-like text for the renderers to escape', () => {
    const texts = [...corpus.values()].map((d) => d.text).join('\n');
    expect(texts).toContain('<script>');
    expect(texts).toContain('<b>');
    expect(texts).toContain('&amp;');
  });
});

describe('tools/samples/generate.ts', () => {
  const out = mkdtempSync(join(tmpdir(), 'qrelay-samples-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('reproduces the committed samples byte for byte', () => {
    execFileSync(process.execPath, ['--import', 'tsx', join(paths.root, 'tools/samples/generate.ts'), '--out', out], {
      cwd: paths.root,
      stdio: 'pipe',
    });
    const files = (dir: string) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name !== 'population.json')
        .map((e) => relative(dir, join(e.parentPath, e.name)))
        .sort();
    expect(files(out)).toEqual(files(paths.samples));
    for (const file of files(out)) {
      expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(join(paths.samples, file), 'utf8'));
    }
  });
});
