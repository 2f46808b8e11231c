import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The e2e files that may run beside one another: each builds only in a copy of the project of its
 * own (test/support/site.ts, `projectCopy`: its own Astro cache, preparations and build lock), or
 * builds nothing and only reads the fixture site of the global setup. A file that builds in the
 * project itself, or runs its dev server there, must not be here: two such files would take turns
 * at its build lock and prune each other's preparations. In the order they start (the longest
 * first, so that no long file starts last and runs on alone), then the others.
 */
const SIDE_BY_SIDE = [
  'test/rebuilds/rebuilds.test.ts',
  'test/http/damaged-caches.test.ts',
  'test/http/interruptions.test.ts',
  'test/http/file-systems.test.ts',
  'test/browser/pages.test.ts',
  'test/http/incremental.test.ts',
  'test/deploy/deploy-tools.test.ts',
  'test/http/damaged-publication.test.ts',
  'test/browser/sort-and-make.test.ts',
  'test/http/build.test.ts',
  'test/http/mirror.test.ts',
  'test/http/hostile.test.ts',
  'test/http/openapi-tools.test.ts',
  'test/http/netlify.test.ts',
  'test/http/static-hosts.test.ts',
  'test/http/refusals.test.ts',
  'test/http/contract.test.ts',
  'test/http/cloudflare.test.ts',
  'test/http/links.test.ts',
  'test/http/abuse.test.ts',
  'test/http/compression.test.ts',
  'test/http/vercel.test.ts',
  'test/http/nginx.test.ts',
  'test/http/listing.test.ts',
];

/**
 * Vitest's order (groups, then projects), with the files of SIDE_BY_SIDE in its order: by default
 * a fresh clone (no timings of an earlier run) starts the largest files first, and the longest
 * file, a short one, started last and ran on alone for minutes.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SIDE_BY_SIDE.indexOf(relative(import.meta.dirname, file.moduleId).replaceAll('\\', '/'));
      return index === -1 ? SIDE_BY_SIDE.length : index;
    };
    // Within each project's run of files only: the groups and projects keep Vitest's order.
    const runs: TestSpecification[][] = [];
    for (const file of sorted) {
      const run = runs.at(-1);
      if (run?.[0]?.project.name === file.project.name) run.push(file);
      else runs.push([file]);
    }
    return runs.flatMap((run) => run.toSorted((a, b) => rank(a) - rank(b)));
  }
}

/** The real build, the real servers (preview, dev, nginx, the hosts' own), Chromium, Lighthouse, linkinator, the deploy tools. */
const endToEnd = {
  globalSetup: ['test/support/global-setup.ts'],
  setupFiles: ['test/support/fresh-connections.ts'],
  // Guards against a hang, not timings: a CI machine has been seen two and a half times as slow
  // as a quiet one here, where the longest test takes 27 s and the longest hook 40 s.
  testTimeout: 240_000,
  hookTimeout: 300_000,
  // Browser and background work can be slow on a busy 2-core machine: poll generously (a poll
  // ends as soon as it holds).
  expect: { poll: { timeout: 30_000, interval: 50 } },
} satisfies TestProjectInlineConfiguration['test'];

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // Pure logic: no build, no server, no browser. `npm run test:unit`; files run in parallel, on
        // worker threads that keep the modules they imported from one file to the next (`isolate:
        // false`): importing zod, fast-check and the sources again for each of 30 files took more
        // than a third of the run. So a unit test leaves nothing behind: its own temporary folders,
        // its spies restored (`vi.restoreAllMocks`), the environment put back; none mocks a module.
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['test/{config,data,listing,outputs,publish,serve,integration}/**/*.test.ts'],
          pool: 'threads',
          isolate: false,
          // A guard against a hang, not a timing: the property tests take 4 to 5 s here, and a CI
          // machine has been seen twice as slow (vitest's 5 s default failed two of them there).
          testTimeout: 60_000,
        },
      },
      {
        // Files that build only in copies of the project of their own (test/support/site.ts,
        // projectCopy) or only read the fixture site, Chromium's behaviour tests among them (they
        // measure no time): side by side, a file on each core.
        test: { ...endToEnd, name: 'e2e-parallel', include: SIDE_BY_SIDE, maxWorkers: availableParallelism(), sequence: { groupOrder: 1 } },
      },
      {
        // Files that build or run the dev server in the project itself share its caches and its
        // build lock: one at a time.
        test: {
          ...endToEnd,
          name: 'e2e',
          include: ['test/{http,deploy,rebuilds}/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SIDE_BY_SIDE],
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Lighthouse (which measures), and Chromium on the dev server (in the project itself): last
        // and alone, nothing else on the machine meanwhile.
        test: {
          ...endToEnd,
          name: 'e2e-browser',
          include: ['test/{browser,audit}/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SIDE_BY_SIDE],
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
