import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { refreshCopy } from '../../src/publish/host-copies.ts';

const root = mkdtempSync(join(tmpdir(), 'host-copies-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function site(name: string, files: readonly string[]): string {
  const dir = join(root, name);
  for (const path of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), path);
  }
  return dir;
}

const inode = (path: string) => statSync(path).ino;

describe("the hosts' copy of a site", () => {
  it('is made where there is none: every listed file the site file itself (a hard link), its folders made', async () => {
    const files = ['index.html', 'page/2/index.html', 'page/3/index.html', 'page/2.json', '_astro/a.css'];
    const from = site('new-site', files);
    const copy = join(root, 'new-copy', 'static');
    refreshCopy(from, files, copy);
    for (const path of files) expect(inode(join(copy, path)), path).toBe(inode(join(from, path)));
    expect(readdirSync(join(copy, 'page')).sort()).toEqual(['2', '2.json', '3']);
  });

  it('is made without the folder of a listed file the site no longer has', async () => {
    const from = site('gone-site', ['index.html']);
    const copy = join(root, 'gone-copy');
    refreshCopy(from, ['index.html', 'page/9/index.html'], copy);
    expect(existsSync(join(copy, 'index.html'))).toBe(true);
    expect(existsSync(join(copy, 'page/9'))).toBe(false);
  });

  it('is brought up to a new site: listed files linked again, files gone from the site removed with their folder, others left', async () => {
    const from = site('old-site', ['index.html', 'page/2/index.html', 'page/3/index.html']);
    const copy = join(root, 'old-copy');
    refreshCopy(from, ['index.html', 'page/2/index.html', 'page/3/index.html'], copy);
    const kept = inode(join(copy, 'page/2/index.html'));
    rmSync(join(from, 'page/3'), { recursive: true });
    rmSync(join(from, 'index.html'));
    writeFileSync(join(from, 'index.html'), 'new home');
    refreshCopy(from, ['index.html', 'page/3/index.html'], copy);
    expect(inode(join(copy, 'index.html'))).toBe(inode(join(from, 'index.html')));
    expect(inode(join(copy, 'page/2/index.html'))).toBe(kept);
    expect(existsSync(join(copy, 'page/3'))).toBe(false);
  });

  it('leaves a listed file that is the site file already (a page written in place): its folder is not written', async () => {
    const from = site('in-place-site', ['page/2/index.html', 'page/2.json']);
    const copy = join(root, 'in-place-copy');
    refreshCopy(from, ['page/2/index.html', 'page/2.json'], copy);
    writeFileSync(join(from, 'page/2/index.html'), 'written in place');
    const longAgo = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(copy, 'page/2'), longAgo, longAgo);
    refreshCopy(from, ['page/2/index.html'], copy);
    expect(readFileSync(join(copy, 'page/2/index.html'), 'utf8')).toBe('written in place');
    expect(statSync(join(copy, 'page/2')).mtime).toEqual(longAgo);
  });
});
