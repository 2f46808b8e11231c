/**
 * `npm run build` with nothing to build: where the published build is current (its data, code and
 * settings are this build's, and its folders are as it published them: src/publish/current.ts), the
 * build says so, writes its report and ends before Astro loads, in a fraction of a second where a
 * build that finds nothing changed takes Astro's start and more. Nothing is published: the site,
 * its manifest and its build id stay the published build's. FULL_BUILD=1 builds anyway.
 */
import { join } from 'node:path';
import nodeLogDestination from 'astro/logger/node';
import type { Config } from '../config.ts';
import { PhaseClock, reportBuild } from '../outputs/report.ts';
import { currentBuild } from '../publish/current.ts';
import { machineFault } from './faults.ts';
import { acquireBuildLocks, PROJECT_CACHE_DIR } from '../publish/lock.ts';
import { clearRenderFolders } from '../publish/render-folder.ts';
import { pruneBuilds, storeDirOf } from '../publish/store.ts';

/**
 * Whether the published build of `config` is current for a build in the project at `root`: then
 * said and reported, and true; else false, and the build goes on. A wait for another build's lock
 * meanwhile is said as the build says it (Astro's logger, as in session.ts).
 */
export async function nothingToBuild(config: Config, root: string): Promise<boolean> {
  if (config.fullBuild) return false;
  const destination = nodeLogDestination();
  const warn = (message: string) => destination.write({ label: 'listing', level: 'warn', message, newLine: true });
  const clock = new PhaseClock();
  const store = storeDirOf(config.outDir);
  let lock;
  try {
    // Another build may be publishing: what is published is compared once it is done. The site's
    // lock too: this removes the store's folders that are not published, as a build does.
    lock = await acquireBuildLocks(root, store, config.outDir, warn);
  } catch (error) {
    // The build that follows takes the same lock, and stops there with the fault's own message.
    if (machineFault(error)) return false;
    throw error;
  }
  try {
    const current = currentBuild(config, root, store);
    if (current === undefined) return false;
    // What killed builds left goes, as at any build's start: their folders in the store (the published
    // build and the one before it stay) and what they rendered in the project's cache.
    pruneBuilds(store);
    clearRenderFolders(join(root, PROJECT_CACHE_DIR));
    clock.end('compare with the published build');
    reportBuild(
      clock,
      {
        ...current,
        outDir: config.outDir,
        dataFile: config.dataFile,
        rendered: { json: 0, html: 0 },
        changes: 'none: nothing was built',
        unchangedFiles: current.files,
        dataValidated: false,
        built: false,
      },
      config,
    );
    return true;
  } catch (error) {
    // A file that cannot be read or written here (the stamp, a folder of the site, the report): said,
    // and the build goes on in full, which needs none of them (it replaces the stamp and the report,
    // and stops with the fault's own message where it meets one).
    const fault = machineFault(error);
    if (fault === undefined) throw error;
    warn(`Could not compare with the published build (${fault.code}${fault.path ? `: ${fault.path}` : ''}): building in full.`);
    return false;
  } finally {
    lock.release();
  }
}
