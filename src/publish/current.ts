/**
 * Whether the published build is current: whether a build would publish what is published already,
 * so that `npm run build` can say so and stop before Astro loads (src/integration/nothing-to-build.ts).
 *
 * A build leaves a stamp in its store once it is published: what it was built from (its inputs)
 * and what its folders hold (its tree). The published build is current when
 * - the inputs are this build's: the settings that shape the site (the addresses, the data file's
 *   path and SHA-256, the folders, the change documents kept, the contact and licence stated), the code (`src/`, `public/`,
 *   astro.config.mjs, tsconfig.json, package.json and its lock file; not a package changed in
 *   node_modules without them), and Node's version and its ICU and Unicode data;
 * - OUT_DIR and DEPLOY_DIR still show that build, and its site and deploy folders are as it
 *   published them at their top level: each folder, and every file, folder and link in it, by name,
 *   inode, size and modification time. A folder's time changes with what it holds, so a file or
 *   folder added, removed or renamed in the site's top folders is seen, as is a top-level file (the
 *   manifest, the downloads, the home pages) written in place; a file changed deeper in by hand (a
 *   page) is not: FULL_BUILD=1 builds then. Every entry of a 100k-row site and its deploy folder
 *   would cost over a second after each build, a tenth of a 1 % edit's, where the top level costs
 *   milliseconds. The deploy folder's own folders count by name and inode alone: the hosts' CLIs keep
 *   their state in them (`.wrangler/` in `cloudflare/`), which changes no host file.
 * Anything else, or no whole stamp of that build, and the build goes on as before.
 */
import { dataFileProblem } from '../data/read.ts';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { checkedJson, damagedCacheLine, fileSha256, jsonOf, OTHER_VERSION, readChecked } from '../files/checked-files.ts';
import { ifPresent } from '../files/missing.ts';
import type { Publisher } from '../listing/publisher.ts';
import type { Addresses } from '../listing/serialise.ts';
import { sourceFingerprint } from '../files/source-fingerprint.ts';
import { replaceAside } from './replace-aside.ts';
import { publishedBuild, showsPublishedDeploy, type BuildFolder } from './store.ts';

/** The stamp, in the store beside the builds (store.ts): a file no build folder holds, so a published build's own files never change. */
const STAMP_FILE = 'current-build.json';
/** Bumped when what the stamp covers changes: a stamp of another version is no stamp. */
const VERSION = 1;

const stampSchema = z.object({
  version: z.literal(VERSION),
  buildId: z.string(),
  /** SHA-256 of the build's inputs (`inputsOf`). */
  inputs: z.string(),
  /** SHA-256 of its folders' entries as published (`treeOf`). */
  tree: z.string(),
  /** What a report of it says (see src/outputs/report.ts). */
  changedBy: z.string(),
  rows: z.int().nonnegative(),
  files: z.int().nonnegative(),
  bytes: z.int().nonnegative(),
});

export type CurrentBuild = Omit<z.infer<typeof stampSchema>, 'version' | 'inputs' | 'tree'>;

/** What of a build's configuration (src/config.ts) shapes what it publishes. */
interface SiteSettings extends Addresses, Publisher {
  dataFile: string;
  outDir: string;
  deployDir: string;
  changesKept: number;
  checkAllPages: boolean;
}

/**
 * The settings and code a build of `config` in the project at `root` is made from, as one hash: taken
 * as the build starts, so that a source saved while it runs is a change for the next build.
 */
export function settingsOf(config: SiteSettings, root: string): string {
  // CHECK_PAGES=all asks for a check of every page: a build, even with nothing else changed.
  const { baseUrl, assetsUrl, dataFile, outDir, deployDir, changesKept, checkAllPages, contact, license } = config;
  return createHash('sha256')
    .update(
      JSON.stringify({
        version: VERSION,
        settings: { baseUrl, assetsUrl, dataFile, outDir, deployDir, changesKept, checkAllPages, contact, license },
        code: sourceFingerprint(root, 'build'),
        // Prices and counts are formatted by Node's ICU. (Not NODE_ENV: Astro's build sets its own,
        // so it differs between a build's start and its end.)
        node: [process.version, process.versions.icu, process.versions.unicode],
      }),
    )
    .digest('hex');
}

/** A build's inputs: its settings and code (`settingsOf`), and the SHA-256 of the data file it read. */
const inputsOf = (settings: string, dataSha256: string) => createHash('sha256').update(`${settings}\0${dataSha256}`).digest('hex');

/**
 * The site and deploy folders and every entry in them, by name, type, inode, size and modification
 * time, and where each link points, as one hash; in name order: the same folders, the same hash.
 */
function treeOf(site: string, deploy: string): string {
  const hash = createHash('sha256');
  const add = (path: string, shown: string, withTime: boolean) => {
    const stats = lstatSync(path, { bigint: true });
    const state = withTime ? `${stats.size}\0${stats.mtimeNs}` : '';
    hash.update(`${shown}\0${stats.mode}\0${stats.ino}\0${state}\n`);
    if (stats.isSymbolicLink()) hash.update(`${readlinkSync(path)}\n`);
  };
  for (const [index, dir] of [site, deploy].entries()) {
    add(dir, String(index), true);
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      // The deploy folder's folders by name and inode alone (see the header).
      add(path, `${index}/${name}`, dir === site || !lstatSync(path).isDirectory());
    }
  }
  return hash.digest('hex');
}

/**
 * Stamps `folder`, the build just published in `store`, as built from `settings` and the data
 * file whose bytes have `dataSha256`. Called under the build lock, once nothing changes in that
 * folder any more; written aside and renamed, so a process killed meanwhile leaves the last stamp
 * (of another build: no stamp for this one).
 */
export function stampPublished(
  store: string,
  folder: BuildFolder,
  { settings, dataSha256, changedBy, rows, files, bytes }: { settings: string; dataSha256: string } & Omit<CurrentBuild, 'buildId'>,
): void {
  const stamp: z.infer<typeof stampSchema> = {
    version: VERSION,
    buildId: folder.id,
    inputs: inputsOf(settings, dataSha256),
    tree: treeOf(folder.siteDir, folder.deployDir),
    changedBy,
    rows,
    files,
    bytes,
  };
  replaceAside(join(store, STAMP_FILE), (aside) => writeFileSync(aside, checkedJson(stamp)));
}

/**
 * The published build of `config`'s site where it is current for a build of `config` in the
 * project at `root` (see the header); else undefined. A damaged stamp is said in one line, as
 * any damaged cache (a stamp of another version is none, and not damaged).
 */
export function currentBuild(config: SiteSettings, root: string, store: string): CurrentBuild | undefined {
  const stamp = readChecked(
    join(store, STAMP_FILE),
    (body) => jsonOf(body.toString('utf8'), stampSchema) ?? OTHER_VERSION,
    (path) => console.error(damagedCacheLine(path)),
  );
  if (stamp === undefined) return undefined;
  const folder = publishedBuild(store, config.outDir);
  if (folder?.id !== stamp.buildId || !showsPublishedDeploy(store, config.deployDir)) return undefined;
  // No data file, or none that can be read: the build goes on, and its preparation says why (dataFileProblem).
  if (dataFileProblem(config.dataFile) !== undefined) return undefined;
  const dataSha256 = ifPresent(() => fileSha256(config.dataFile));
  if (dataSha256 === undefined || inputsOf(settingsOf(config, root), dataSha256) !== stamp.inputs) return undefined;
  if (treeOf(folder.siteDir, folder.deployDir) !== stamp.tree) return undefined;
  const { buildId, changedBy, rows, files, bytes } = stamp;
  return { buildId, changedBy, rows, files, bytes };
}
