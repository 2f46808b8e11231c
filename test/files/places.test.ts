/** Paths compared as the disk they are on compares them: a FAT disk of the test's own, and the project's disk. */
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isInsidePlace, isSamePlace } from '../../src/files/places.ts';
import { mountCaseless } from '../support/mounts.ts';
import { tempDir } from '../support/site.ts';

let workspace: string;
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

describe('places', () => {
  it('on a disk that ignores case: one place in any case, there or not yet, and the probe of an empty disk leaves nothing', (context) => {
    workspace = tempDir('places-caseless');
    const disk = mountCaseless(join(workspace, 'fat'));
    if (typeof disk === 'string') return context.skip(disk);
    try {
      const at = (path: string) => join(disk.dir, path);
      // Nothing there yet: the disk is empty, so a file made for the probe answers, and is gone after.
      expect(isSamePlace(at('dist'), at('DIST'))).toBe(true);
      expect(readdirSync(disk.dir)).toEqual([]);
      expect(isInsidePlace(at('Dist/sub/x.csv'), at('dist'))).toBe(true);
      expect(isInsidePlace(at('distant/x.csv'), at('dist'))).toBe(false);
      mkdirSync(at('dist/sub'), { recursive: true });
      // There (listed as dist), against there and against not yet there.
      expect(isSamePlace(at('DIST/Sub'), at('dist/sub'))).toBe(true);
      expect(isInsidePlace(at('Dist/SUB/new/x.csv'), at('dist/Sub'))).toBe(true);
      expect(isInsidePlace(at('dist'), at('Dist/sub'))).toBe(false);
      expect(isSamePlace(at('dist/other'), at('Dist/OTHER'))).toBe(true);
    } finally {
      disk.unmount();
    }
  });

  it("on a disk that minds case (Linux's): two places; through links where asked", () => {
    workspace = tempDir('places-cased');
    const at = (path: string) => join(workspace, path);
    expect(isSamePlace(at('dist'), at('DIST'))).toBe(false);
    mkdirSync(at('dist/sub'), { recursive: true });
    expect(isSamePlace(at('dist/sub'), at('dist/./sub'))).toBe(true);
    expect(isInsidePlace(at('Dist/sub'), at('dist'))).toBe(false);
    symlinkSync(at('dist'), at('link'));
    expect(isInsidePlace(at('link/sub/x'), at('dist'), { followLinks: true })).toBe(true);
    expect(isInsidePlace(at('link/sub/x'), at('dist'))).toBe(false);
  });
});
