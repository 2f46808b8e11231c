/**
 * The V8 flags `npm run build` sets before it loads anything else (scripts/build.ts).
 *
 * A build that stops (a refusal, a signal, a fault) ends with `process.exit()`, maybe while V8
 * compiles on its helper threads. In Node 24 a helper allocating the code of Sparkplug or Maglev
 * can wait for a garbage collection that only the main thread runs, while the exiting main thread
 * waits for the helpers: the process never ends (nodejs/node#54918, #64274; met in two CI runs of
 * this project). With these flags that code is allocated on the main thread; the compilers still
 * compile on the helpers. No measurable cost (docs/performance.md).
 *
 * They are V8's own flags, not Node's API: an upgrade may rename or drop one, and V8 then only
 * prints "unrecognized flag" and goes on without it. test/integration/exit-safe-v8.test.ts names
 * that. `NODE_OPTIONS` does not accept V8 flags, hence `v8.setFlagsFromString`.
 */
export const EXIT_SAFE_V8_FLAGS = [
  '--no-concurrent-sparkplug',
  '--no-maglev-build-code-on-background',
  '--no-maglev-deopt-data-on-background',
] as const;
