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
          // A guard against a hang, not a timing: the property tests take 4 to 5 s here, and a CI
          // machine has been seen twice as slow (vitest's 5 s default failed two of them there).
          testTimeout: 60_000,
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
          setupFiles: ['test/support/fresh-connections.ts'],
          // Builds and servers are shared through the global setup; files with their own builds run one at a time.
          fileParallelism: false,
          // Guards against a hang, not timings: a CI machine has been seen two and a half times as
          // slow as a quiet one here, where the longest test takes 27 s and the longest hook 40 s.
          testTimeout: 240_000,
          hookTimeout: 300_000,
          // Browser and background work can be slow on a busy 2-core machine: poll generously (a
          // poll ends as soon as it holds).
          expect: { poll: { timeout: 30_000, interval: 50 } },
        },
      },
    ],
  },
});
