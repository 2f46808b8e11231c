/**
 * `npm run build`: Astro's build (its public `build()`), whose listing integration validates the
 * data, renders, writes the data files and publishes. The build begins before Astro is loaded, so
 * that the data side works while Astro loads (see src/integration/session.ts). The integration
 * reports its own refusals and the machine's faults in its own steps; this says the same of a
 * fault in Astro's own steps (a page write on a full disk, say), as a message rather than a stack
 * trace, with exit code 1.
 */
import { enableCompileCache } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { EXIT_SAFE_V8_FLAGS } from '../src/integration/exit-safe-v8.ts';

// Before any other module loads, so that no code is compiled without them; only those not given on
// the command line (`npm run build` gives them all), as a flag changed at run time can change under
// a compile job: see the module.
const flagsToSet = EXIT_SAFE_V8_FLAGS.filter((flag) => !process.execArgv.includes(flag));
if (flagsToSet.length > 0) setFlagsFromString(flagsToSet.join(' '));

// Astro, Vite and the build's threads load hundreds of modules in every build: V8's compiled code,
// kept between builds (Node's compile cache, in the system's temporary folder), saves a few tenths
// of a second of each. Set in the environment for the worker threads; what follows is loaded after.
const compileCache = enableCompileCache();
if (compileCache.directory !== undefined) process.env['NODE_COMPILE_CACHE'] = compileCache.directory;
const { loadConfigOrExit } = await import('../src/config.ts');
const { nothingToBuild } = await import('../src/integration/nothing-to-build.ts');

const config = loadConfigOrExit();
// The published build may be current already: then said, and nothing else is loaded.
if (!(await nothingToBuild(config, process.cwd()))) {
  const { faultMessage, projectBuildFolders } = await import('../src/integration/faults.ts');
  const { REFUSED_EXIT_CODE } = await import('../src/integration/refusals.ts');
  const { beginEarly } = await import('../src/integration/session.ts');
  // Loading Astro holds this thread: the build's start (its lock, its folder, the data side's thread) goes first.
  await beginEarly(config, process.cwd());
  const { build } = await import('astro');

  try {
    // Astro's own lines (a line per page: hundreds of thousands at a million rows) only where they warn:
    // the build says what it does itself, on standard error (src/integration/build.ts, its report).
    await build({ logLevel: 'warn' });
  } catch (error) {
    const fault = faultMessage(error, projectBuildFolders(config, process.cwd()), 'Astro built the site', config.outDir);
    if (fault === undefined) throw error;
    console.error(`\n${fault}`);
    process.exit(REFUSED_EXIT_CODE);
  }
}
