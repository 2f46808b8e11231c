/**
 * `npm run build`: Astro's build (its public `build()`), whose listing integration validates the
 * data, renders, writes the data files and publishes. The integration reports its own refusals and
 * the machine's faults in its own steps; this says the same of a fault in Astro's own steps (a page
 * write on a full disk, say), as a message rather than a stack trace, with exit code 1.
 */
import { build } from 'astro';
import { loadConfigOrExit } from '../src/config.ts';
import { faultMessage, projectBuildFolders } from '../src/integration/faults.ts';
import { REFUSED_EXIT_CODE } from '../src/integration/refusals.ts';

const config = loadConfigOrExit();

try {
  await build({});
} catch (error) {
  const fault = faultMessage(error, projectBuildFolders(config, process.cwd()), 'Astro built the site', config.outDir);
  if (fault === undefined) throw error;
  console.error(`\n${fault}`);
  process.exit(REFUSED_EXIT_CODE);
}
