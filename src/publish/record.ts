/**
 * A build's record: what the next build needs to know of it, kept in the build's own folder and so
 * published with it in the same rename (see store.ts). It is written before publication, complete
 * or not at all (written aside, then renamed), and never changed afterwards.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { damagedCacheLine, OTHER_VERSION, readChecked, withHash } from '../files/checked-files.ts';
import type { PageKeys } from '../listing/page-keys.ts';
import type { PageFlags } from '../outputs/listing-pages.ts';
import { replaceAside } from './replace-aside.ts';

const BUILD_RECORD_FILE = 'build-record.v8';
/** Bumped when the record's shape changes: a record of another version is no record. */
const VERSION = 3;

/** Which pages a build writes, as its listing pages' writers take them. */
export type RenderSet = PageFlags;

export interface BuildRecord {
  version: typeof VERSION;
  /** A hash of the code and addresses that made the site: pages are taken from it only by a build of the same. */
  fingerprint: string;
  /** The preparation of its data (see src/outputs/preparation.ts), which later edits are validated against. */
  dataKey: string;
  keys: PageKeys;
  /** The pages it rendered: the others are the files of the build it replaced (hard links). */
  rendered: RenderSet;
  /** Every file of its site (site paths). */
  files: readonly string[];
  bytes: number;
}

/**
 * The record of the build in `buildDir`, if it is of this version and whole (its bytes carry their
 * hash: a damaged record is said and taken as none, so nothing is taken from that build on trust).
 */
export function readRecord(buildDir: string): BuildRecord | undefined {
  // A record of another version is no record, and not damaged: it is a build of other code.
  return readChecked(
    join(buildDir, BUILD_RECORD_FILE),
    (body) => {
      const value = deserialize(body) as Partial<BuildRecord>;
      return value.version === VERSION ? (value as BuildRecord) : OTHER_VERSION;
    },
    (path) => console.error(damagedCacheLine(path)),
  );
}

export function writeRecord(buildDir: string, record: Omit<BuildRecord, 'version'>): void {
  replaceAside(join(buildDir, BUILD_RECORD_FILE), (aside) => writeFileSync(aside, withHash(serialize({ version: VERSION, ...record }))));
}
