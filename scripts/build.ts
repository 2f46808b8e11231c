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

// A refused build ends with `process.exit()`, maybe while V8 compiles code on its helper threads.
// In Node 24 a helper allocating code for Sparkplug or Maglev can wait there for a garbage
// collection that only the exiting main thread could run, while that thread waits for the helper:
// the process never ends (nodejs/node#54918, #64274; met in this project's tests). Code is
// allocated on the main thread instead; the compilers still run (set before any module loads).
setFlagsFromString('--no-concurrent-sparkplug --no-maglev-build-code-on-background --no-maglev-deopt-data-on-background');

// Astro, Vite and the build's threads load hundreds of modules in every build: V8's compiled code,
// kept between builds (Node's compile cache, in the system's temporary folder), saves a few tenths
// of a second of each. Set in the environment for the worker threads; what follows is loaded after.
const compileCache = enableCompileCache();
if (compileCache.directory !== undefined) process.env['NODE_COMPILE_CACHE'] = compileCache.directory;
const { loadConfigOrExit } = await import('../src/config.ts');
const { faultMessage, projectBuildFolders } = await import('../src/integration/faults.ts');
const { REFUSED_EXIT_CODE } = await import('../src/integration/refusals.ts');
const { beginEarly } = await import('../src/integration/session.ts');

const config = loadConfigOrExit();
// Loading Astro holds this thread: the build's start (its lock, its folder, the data side's thread) goes first.
await beginEarly(config, process.cwd());
const { build } = await import('astro');

try {
  await build({});
} catch (error) {
  const fault = faultMessage(error, projectBuildFolders(config, process.cwd()), 'Astro built the site', config.outDir);
  if (fault === undefined) throw error;
  console.error(`\n${fault}`);
  process.exit(REFUSED_EXIT_CODE);
}
