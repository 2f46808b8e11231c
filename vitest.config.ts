import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        // Pure logic: no build, no server, no browser. `npm run test:unit`; files run in parallel, on
        // worker threads that keep the modules they imported from one file to the next (`isolate:
        // false`): importing zod, fast-check and the sources again for each of 30 files took more
        // than a third of the run. So a unit test leaves nothing behind: its own temporary folders,
        // its spies restored (`vi.restoreAllMocks`), the environment put back; none mocks a module.
        test: {
          name: 'unit',
          include: ['test/{config,data,listing,outputs,publish,serve,integration}/**/*.test.ts'],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        // The real build, the real servers (preview, nginx), Chromium, Lighthouse, linkinator.
        test: {
          name: 'e2e',
          include: [
            'test/http/**/*.test.ts',
            'test/browser/**/*.test.ts',
            'test/audit/**/*.test.ts',
            'test/deploy/**/*.test.ts',
            'test/rebuilds/**/*.test.ts',
          ],
          globalSetup: ['test/support/global-setup.ts'],
          // Builds and servers are shared through the global setup; files with their own builds run one at a time.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Browser and background work can be slow on a busy 2-core machine: poll generously.
          expect: { poll: { timeout: 10_000, interval: 50 } },
        },
      },
    ],
  },
});
