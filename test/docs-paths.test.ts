import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../src/paths.js';

/**
 * Every path the prose names exists: the relative links of README.md, CONTRIBUTING.md,
 * docs/ and the packages' READMEs, and the repository paths they quote in backticks
 * (`src/x/y.ts`, `docs/a.md`, `tools/devdb/...`). A moved or deleted file otherwise leaves
 * a newcomer following a path that leads nowhere.
 */

const root = paths.root;

function markdownUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(dir, f));
}

const docs = [
  'README.md',
  'CONTRIBUTING.md',
  ...markdownUnder('docs'),
  ...readdirSync(join(root, 'packages'))
    .map((p) => join('packages', p, 'README.md'))
    .filter((f) => existsSync(join(root, f))),
];

/** The repository's top-level entries: a quoted path must start with one to be taken for a repository path. */
const topLevel = new Set(readdirSync(root).filter((f) => f !== '.git'));

/** What .gitignore ignores at the top (made by builds, tests and runs: named in prose, absent from a fresh clone). */
const generated = readFileSync(join(root, '.gitignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim().replace(/^\//, ''))
  .filter((l) => l && !l.startsWith('#') && !l.includes('*'));

/** Files written by `npm run bench`, tests or commands into the tree that the prose may name before they exist. */
const isGenerated = (path: string): boolean =>
  generated.some((g) => path === g.replace(/\/$/, '') || path.startsWith(g.endsWith('/') ? g : `${g}/`));

interface NamedPath {
  line: number;
  path: string;
  kind: 'link' | 'quoted';
}

/** The relative link targets and quoted repository paths of a markdown text. */
function namedPaths(text: string): NamedPath[] {
  const found: NamedPath[] = [];
  let fenced = false;
  for (const [i, line] of text.split('\n').entries()) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
      found.push({ line: i + 1, path: decodeURIComponent(target.replace(/[#?].*$/, '')), kind: 'link' });
    }
    for (const m of line.matchAll(/`([^`]+)`/g)) {
      for (const token of m[1]!.split(/\s+/)) {
        const path = token.replace(/^\.\//, '').replace(/[),;.:]+$/, '');
        const first = path.split('/')[0]!;
        if (!path.includes('/') && !topLevel.has(path)) continue;
        if (!topLevel.has(first) || /[<>*{}$|\\[\]]|\.\.\./.test(path)) continue;
        found.push({ line: i + 1, path: path.replace(/(\.\w+):\d+(-\d+)?$/, '$1'), kind: 'quoted' });
      }
    }
  }
  return found;
}

describe('paths named in the documentation', () => {
  it('finds links and quoted repository paths, and leaves out what is not one', () => {
    const text = [
      'See [the guide](docs/a.md#part) and [site](https://example.org/x.md), `src/x/y.ts:12`, `node dist/src/cli.js`.',
      'A command `qrelay import cases.jsonl` and a type `a/b` are not repository paths; `<file>` and `src/**/*.ts` are patterns.',
      '```sh',
      'cat src/in-a-fence.ts',
      '```',
      '`tools/devdb/patches/`.',
    ].join('\n');
    expect(namedPaths(text)).toEqual([
      { line: 1, path: 'docs/a.md', kind: 'link' },
      { line: 1, path: 'src/x/y.ts', kind: 'quoted' },
      { line: 1, path: 'dist/src/cli.js', kind: 'quoted' },
      { line: 6, path: 'tools/devdb/patches/', kind: 'quoted' },
    ]);
  });

  it.each(docs)('%s names only paths that exist', (doc) => {
    const text = readFileSync(join(root, doc), 'utf8');
    const missing = namedPaths(text)
      .filter(({ path, kind }) => {
        if (kind === 'link') return !existsSync(join(root, dirname(doc), path));
        if (isGenerated(path)) return false;
        // a package's README quotes its own files from the package's root
        return !existsSync(join(root, path)) && !existsSync(join(root, dirname(doc), path));
      })
      .map(({ line, path, kind }) => `${relative(root, join(root, doc))}:${line}: ${kind} ${path}`);
    expect(missing).toEqual([]);
  });
});
