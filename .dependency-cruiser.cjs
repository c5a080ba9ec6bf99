/**
 * qrelay's boundaries, checked by `npm run lint` (depcruise). Where a rule names an area's
 * public entry, it is that area's index.ts. docs/architecture.md explains the parts.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const PURE_CORE = '^src/(aggregate|quality|hits|qrels)/|^packages/marketplace/src/(fees|xml-reader)\\.ts$';
// the core's file adapters: they read bundled assets (presets, qualification tests,
// templates, the decoy pool) or TREC files, and write qrels atomically; nothing else in the core touches files
const CORE_FILE_ADAPTERS = '^src/hits/(presets|qualification|templates|decoys)\\.ts$|^src/qrels/(read|atomic-write)\\.ts$';
const AREAS_WITH_ENTRY = 'aggregate|quality|hits|qrels|ingest|export|simulation';
/** A forbidden import from one layer into another. */
const layer = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only ones included: a cycle means two modules are one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'marketplace-imports-nothing-of-qrelay',
      comment: 'packages/marketplace is a product of its own: it imports nothing outside its package.',
      severity: 'error',
      from: { path: '^packages/marketplace/' },
      to: { path: '^(src|test|bench|tools|migrations)/' },
    },
    {
      name: 'marketplace-through-its-public-entry',
      comment: 'qrelay uses the marketplace only through @qrelay/marketplace (index.ts), /fees, /config, /xml and /errors.',
      severity: 'error',
      from: { path: '^(src|test|bench|tools|migrations)/' },
      to: { path: '^packages/marketplace/', pathNot: '^packages/marketplace/src/(index|fees|config|xml-reader|errors)\\.ts$' },
    },
    {
      name: 'pure-core-no-io',
      comment:
        'The pure core (aggregate, quality, hits, qrels, fees) imports no database, network, HTTP framework, SDK, logger or shell module.',
      severity: 'error',
      from: { path: PURE_CORE, pathNot: '\\.test\\.ts$' },
      to: {
        path: [
          '^node_modules/(mongoose|mongodb|express|@aws-sdk|@smithy|openai|agenda|@agendajs|pino|pino-http|prom-client|supertest)/',
          '^(node:)?(http|https|http2|net|tls|dgram|dns|child_process|cluster|worker_threads)$',
          '^src/(db|api|jobs|pipeline|cli|demo|crowd|export|reports|simulation)/',
          '^src/(server|app|cli|bundled-marketplace|log)\\.ts$',
          '^packages/marketplace/src/(?!(fees|xml-reader)\\.ts$)',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'pure-core-files-only-in-adapters',
      comment: 'In the core only the named file adapters touch the file system.',
      severity: 'error',
      from: { path: PURE_CORE, pathNot: `${CORE_FILE_ADAPTERS}|\\.test\\.ts$` },
      to: { path: ['^(node:)?fs(/promises)?$', '^src/paths\\.ts$'] },
    },
    {
      name: 'cli-and-api-through-public-entries',
      comment: `The CLI and the API reach ${AREAS_WITH_ENTRY.split('|').join(', ')} only through their index.ts.`,
      severity: 'error',
      from: { path: '^src/(cli|api)/|^src/cli\\.ts$' },
      to: { path: `^src/(${AREAS_WITH_ENTRY})/`, pathNot: `^src/(${AREAS_WITH_ENTRY})/index\\.ts$` },
    },
    {
      name: 'crowd-platforms-behind-the-contract',
      comment:
        'Only src/crowd/mturk speaks @aws-sdk/client-mturk, and nothing else reaches a platform folder: the pipeline, actions, shells and simulation use the contract (src/crowd/platform.ts) and the registry (src/crowd/registry.ts). A new platform adds its folder to pathNot (src/crowd/README.md).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/crowd/(mturk|prolific)/|^src/crowd/registry\\.ts$|\\.test\\.ts$' },
      to: { path: ['^node_modules/@aws-sdk/client-mturk/', '^src/crowd/[^/]+/'] },
    },
    // layers inside qrelay: what two areas share lives in the lower one
    layer(
      'actions-only-from-the-shells',
      "src/actions (the requester's actions) sits on the pipeline: only the console, the API and the CLI import it; what the stages share with it lives below (db/models/actions.ts).",
      { path: '^src/', pathNot: '^src/(actions|console|api|cli)/|^src/cli\\.ts$' },
      { path: '^src/actions/' },
    ),
    layer(
      'batches-below-the-pipeline',
      'src/batches holds the read models the stages use (and the batch names, votes and redundancy they share): it imports no stage.',
      { path: '^src/batches/' },
      { path: '^src/pipeline/' },
    ),
    layer(
      'export-reads-only-the-llm-store',
      'Exports read what the LLM steps stored (debate/store.ts), never the steps themselves.',
      { path: '^src/export/' },
      { path: '^src/debate/', pathNot: '^src/debate/store\\.ts$' },
    ),
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
