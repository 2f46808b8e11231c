/**
 * The machine's faults as messages (src/integration/faults.ts): each cause named with the folder and
 * what to do, however the error arrives (Node's, a worker thread's, rolldown's); anything else is no
 * fault of the machine and keeps its trace. The real faults (full and read-only disks) are
 * test/http/file-systems.test.ts's.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFolders, faultMessage } from '../../src/integration/faults.ts';

const root = mkdtempSync(join(tmpdir(), 'faults-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const config = { outDir: join(root, 'www/dist'), deployDir: join(root, 'www/deploy') };
const cacheDir = join(root, 'node_modules/.astro');
mkdirSync(join(root, 'www/.dist.builds/b1/site'), { recursive: true });
mkdirSync(cacheDir, { recursive: true });
const folders = buildFolders(config, root, cacheDir);
const errno = (code: string, message: string, path?: string) =>
  Object.assign(new Error(message), { code, ...(path !== undefined && { path }) });

describe('faultMessage', () => {
  it('names the folder holding the file, the cause, the remedy and the unchanged site', () => {
    const message = faultMessage(
      errno('EACCES', 'EACCES: permission denied', join(root, 'www/.dist.builds/b1/site/x.html')),
      folders,
      'finishing the build',
      'dist',
    );
    expect(message).toBe(
      `The build stopped while finishing the build: ${join(root, 'www/.dist.builds')} (the build store beside OUT_DIR): permission denied (EACCES).\n` +
        'Give the user running the build write access to it, or set OUT_DIR to a folder on another disk, then build again. Nothing was published: dist/ is unchanged.',
    );
  });

  it("reads a worker thread's error from its message, and rolldown's `(os error N)`", () => {
    const fromWorker = new Error(`ENOSPC: no space left on device, write '${join(cacheDir, 'listing-data/k/records.v8')}'`);
    expect(faultMessage(fromWorker, folders, 'preparing the data', 'dist')).toMatch(
      /\(the project's cache\): the disk is full \(ENOSPC\)\.\nFree some space on the disk that holds it, then build again/,
    );
    const fromRolldown = new Error('Build failed with 1 error:', {
      cause: new Error(
        `Failed to write file in ${join(cacheDir, 'rendering/b1/x.mjs')}\n\nCaused by:\n    Read-only file system (os error 30)`,
      ),
    });
    expect(faultMessage(fromRolldown, folders, 'Astro built the site', 'dist')).toMatch(
      /\(the project's cache\): its file system is read-only \(EROFS\)/,
    );
  });

  it('calls a missing file a vanished folder only where a folder did vanish', () => {
    const gone = join(root, 'www/.dist.builds/b2/site/page/3/index.html');
    expect(faultMessage(errno('ENOENT', 'ENOENT', gone), folders, 'finishing the build', 'dist')).toMatch(
      /the folder vanished while the build ran .* \(ENOENT\)/,
    );
    // The folder is there: a missing file is a bug, not the machine's fault.
    expect(
      faultMessage(errno('ENOENT', 'ENOENT', join(root, 'www/.dist.builds/b1/site/nothing.json')), folders, 'finishing the build', 'dist'),
    ).toBeUndefined();
  });

  it('leaves every other error alone', () => {
    expect(faultMessage(new TypeError('x is undefined'), folders, 'finishing the build', 'dist')).toBeUndefined();
    expect(faultMessage(errno('EADDRINUSE', 'EADDRINUSE'), folders, 'finishing the build', 'dist')).toBeUndefined();
    expect(faultMessage('ENOSPC', folders, 'finishing the build', 'dist')).toBeUndefined();
  });
});
