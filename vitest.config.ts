import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The e2e files that may run beside one another: each builds only in a copy of the project of its
 * own (its own Astro cache, preparations and build lock), or builds nothing and only reads the
 * fixture site of the global setup. A file that builds in the project itself must not be here:
 * two such files would take turns at its build lock and prune each other's preparations.
 */
const SIDE_BY_SIDE = [
  'test/http/damaged-caches.test.ts',
  'test/http/file-systems.test.ts',
  'test/http/interruptions.test.ts',
  'test/deploy/deploy-tools.test.ts',
  'test/deploy/host-builds.test.ts',
  'test/deploy/live-check.test.ts',
  'test/deploy/workflow.test.ts',
  'test/rebuilds/rebuilds.test.ts',
  'test/http/cloudflare.test.ts',
  'test/http/compression.test.ts',
  'test/http/listing.test.ts',
  'test/http/netlify.test.ts',
  'test/http/nginx.test.ts',
  'test/http/openapi-tools.test.ts',
  'test/http/static-hosts.test.ts',
  'test/http/vercel.test.ts',
];

/** The e2e files that run the dev server in the project itself (its caches, its build lock): one at a time, alone. */
const IN_THE_PROJECT = ['test/http/dev.test.ts'];

/**
 * The longest e2e files, in the order they start, before the others of their project: a fresh
 * clone (no timings of an earlier run) starts the largest files first, which can put the longest
 * last, running on alone while the other core has nothing left to do.
 */
const LONGEST_FIRST = [
  'test/http/damaged-caches.test.ts',
  'test/http/file-systems.test.ts',
  'test/rebuilds/rebuilds.test.ts',
  'test/http/incremental.test.ts',
  'test/deploy/deploy-tools.test.ts',
  'test/http/interruptions.test.ts',
];

/** Vitest's order (groups, then projects, then files), with the files of LONGEST_FIRST first in their project. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(relative(import.meta.dirname, file.moduleId).replaceAll('\\', '/'));
      return index === -1 ? LONGEST_FIRST.length : index;
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
  // Guards against a hang, not timings: a busy CI machine is several times as slow as a quiet one,
  // where the longest test takes half a minute and the longest hook more.
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
        // false`): importing zod, fast-check and the sources again for each file would be more
        // than a third of the run. So a unit test leaves nothing behind: its own temporary folders,
        // its spies restored (`vi.restoreAllMocks`), the environment put back; none mocks a module.
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['test/{ci,components,config,data,files,listing,outputs,publish,serve,integration}/**/*.test.ts'],
          pool: 'threads',
          isolate: false,
          // A thread a core: Vitest's own default is one fewer, one thread on a 2-core machine, which
          // makes the run a third longer.
          maxWorkers: availableParallelism(),
          // A guard against a hang, not a timing: the property tests take seconds, and on a slow CI
          // machine more than vitest's 5 s default.
          testTimeout: 60_000,
        },
      },
      {
        // Files that build only in copies of the project of their own (test/support/site.ts,
        // projectCopy) or only read the fixture site: side by side, a file on each core.
        test: { ...endToEnd, name: 'e2e-parallel', include: SIDE_BY_SIDE, maxWorkers: availableParallelism(), sequence: { groupOrder: 1 } },
      },
      {
        // Files that build in copies of the project of their own (refusals.test.ts runs the build,
        // `astro build` and the dev server in the project itself, each refused before it does any
        // work, so it may run beside them), but heavy enough that beside the files above the whole
        // run is longer than after them. After them, a file on each core: a fifth shorter than one
        // at a time on 2 cores.
        test: {
          ...endToEnd,
          name: 'e2e',
          include: ['test/{http,deploy,rebuilds}/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SIDE_BY_SIDE, ...IN_THE_PROJECT],
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 2 },
        },
      },
      {
        // The dev server in the project itself: alone.
        test: { ...endToEnd, name: 'e2e-dev', include: IN_THE_PROJECT, maxWorkers: 1, sequence: { groupOrder: 3 } },
      },
      {
        // Chromium and Lighthouse, last and alone: nothing else on the machine while they measure.
        // The browser files a core each would gain next to nothing: Chromium's processes already
        // fill both cores, and each file takes nearly twice as long beside another.
        test: {
          ...endToEnd,
          name: 'e2e-browser',
          include: ['test/{browser,audit}/**/*.test.ts'],
          maxWorkers: 1,
          sequence: { groupOrder: 4 },
        },
      },
    ],
  },
});
