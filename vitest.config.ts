import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const marketplaceSrc = fileURLToPath(new URL('./packages/marketplace/src/', import.meta.url));

export default defineConfig({
  // the workspace packages from source, as in tsconfig.json's paths
  resolve: {
    alias: [
      { find: /^@qrelay\/marketplace$/, replacement: `${marketplaceSrc}index.ts` },
      { find: /^@qrelay\/marketplace\/(fees|config|errors)$/, replacement: `${marketplaceSrc}$1.ts` },
      { find: /^@qrelay\/marketplace\/xml$/, replacement: `${marketplaceSrc}xml-reader.ts` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/per-file-database.ts'],
    pool: 'forks',
    // safety nets against hangs only: tests wait on events and conditions, and the machine
    // (2 cores, shared) may be busy, so these are far above what any test needs alone
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // 2 cores in CI: a dev database plus two test workers is what the machine holds well
    maxWorkers: 2,
    // `npm test -- --coverage` prints it (text summary and per file); off unless asked
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'packages/*/src/**/*.ts'],
      exclude: ['**/*.test.ts'],
      reporter: ['text-summary', 'text'],
      reportsDirectory: 'coverage',
      // the figure is wanted also while the browser and boto3 tests cannot run on this machine
      reportOnFailure: true,
    },
  },
});
