import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Builds and servers are shared through the global setup; files with their own builds run one at a time.
    fileParallelism: false,
    testTimeout: 60_000,
    // Browser and background work can be slow on a busy 2-core machine: poll generously.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    hookTimeout: 120_000,
  },
});
