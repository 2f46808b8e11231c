/**
 * A file replaced in one step: made beside it under a name no reader looks at, then renamed over
 * it, so a reader sees the old file or the new one, whole, never a half-written one; a process
 * killed part way leaves only a `.tmp` file, which the next build removes (see store.ts).
 */
import { randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';

/** Replaces `path` with what `make` makes at the path it is given (a file, a link, a copy). */
export function replaceAside(path: string, make: (aside: string) => void): void {
  const aside = `${path}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  make(aside);
  renameSync(aside, path);
}
