/**
 * The V8 flags `npm run build` sets before it loads anything else (scripts/build.ts). In Node 24 a
 * V8 helper thread allocating Sparkplug or Maglev code can wait for a garbage collection only the
 * main thread runs, while a main thread in `process.exit()` waits for the helpers: the process never
 * ends (nodejs/node#54918, #64274). With these flags that code is allocated on the main thread.
 * They are V8's own flags: an upgrade may drop one, and Node then refuses to start with it on its
 * command line ("bad option"): test/integration/exit-safe-v8.test.ts names the flag first.
 *
 * `npm run build` gives them on Node's command line (package.json; `NODE_OPTIONS` does not take V8
 * flags), so that they hold before any code runs; scripts/build.ts sets those missing from it with
 * `v8.setFlagsFromString`, for a build run as `node scripts/build.ts`. Changed while the process
 * runs, they change under a Maglev job already on a helper thread: one that began with code built
 * in the background and then reads "deopt data in the background, code not" makes its code without
 * deopt data and stops the process ("Check failed: !deopt_data.is_null()", on a helper thread). Hence the command line; set at run time, the deopt flag goes before the code
 * flag, so that no moment has the one without the other (on x86, where a helper sees the stores in
 * their order; an arm64 helper may not, so there the window is narrower, not closed).
 */
export const EXIT_SAFE_V8_FLAGS = [
  '--no-concurrent-sparkplug',
  '--no-maglev-deopt-data-on-background',
  '--no-maglev-build-code-on-background',
] as const;
