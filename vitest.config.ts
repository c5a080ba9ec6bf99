import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/per-file-database.ts'],
    pool: 'forks',
    // safety nets against hangs only: tests wait on events and conditions, and the machine
    // (2 cores, shared) may be busy, so these are far above what any test needs alone
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // 2 cores in CI: a dev database plus two test workers is what the machine holds well
    maxWorkers: 2,
  },
});
