/**
 * The host configurations of a build, written into its site and its deploy folder. Generating them
 * bundles three edge functions, so they are cached in the build store under a hash of what they are
 * made from (the listing's size and addresses, the folders, the code) and generated again only when
 * that changed. The cached copy is a hint: written whole or not at all, checked by its key and by its
 * own hash (a damaged copy is said and generated again).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { checkedJson, damagedCacheLine, readCheckedJson } from '../files/checked-files.ts';
import { replaceAside } from '../publish/replace-aside.ts';
import { hostFiles, type HostFile, type HostInput } from '../serve/hosts/index.ts';

const CACHE_FILE = 'host-files.json';
/** The cached copy: its key, and the files, each with where it goes, its path and its text. */
const cacheSchema = z.object({
  key: z.string(),
  files: z.array(z.object({ place: z.enum(['site', 'deploy']), path: z.string(), content: z.string() })),
});

/** The host files of a build of code and addresses `fingerprint` for `input` and `deployDir`: the cached copy where it was made of the same. */
export async function cachedHostFiles(
  store: string,
  { fingerprint, input, deployDir }: { fingerprint: string; input: HostInput; deployDir: string },
): Promise<HostFile[]> {
  const key = createHash('sha256')
    .update(JSON.stringify([fingerprint, input, deployDir]))
    .digest('hex');
  const file = join(store, CACHE_FILE);
  const cached = readCheckedJson(file, cacheSchema, (path) => console.error(damagedCacheLine(path)));
  if (cached?.key === key) return cached.files;
  const files = await hostFiles(input, deployDir);
  replaceAside(file, (aside) => writeFileSync(aside, checkedJson({ key, files })));
  return files;
}

/** Writes each host file under the folder of its place, creating folders as needed. */
export function writeHostFiles(files: readonly HostFile[], dirs: Record<HostFile['place'], string>): void {
  for (const file of files) {
    const target = join(dirs[file.place], file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}
