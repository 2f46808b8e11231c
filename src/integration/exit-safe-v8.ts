/**
 * The V8 flags `npm run build` sets before it loads anything else (scripts/build.ts). In Node 24 a
 * V8 helper thread allocating Sparkplug or Maglev code can wait for a garbage collection only the
 * main thread runs, while a main thread in `process.exit()` waits for the helpers: the process never
 * ends (nodejs/node#54918, #64274). With these flags that code is allocated on the main thread.
 * They are V8's own flags: an upgrade may drop one, which V8 only warns of and goes on
 * (test/integration/exit-safe-v8.test.ts names that). `NODE_OPTIONS` does not accept V8 flags, hence `v8.setFlagsFromString`.
 */
export const EXIT_SAFE_V8_FLAGS = [
  '--no-concurrent-sparkplug',
  '--no-maglev-build-code-on-background',
  '--no-maglev-deopt-data-on-background',
] as const;
