/**
 * A render thread's page writer (src/integration/render-threads.ts): each page a new file in the
 * folder Astro renders into, its hash taken; the published site's file where that has the page's
 * bytes; a page it cannot write handed back to Astro with its body, but never one whose file is
 * already there.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pageWriter } from '../../src/integration/render-threads.ts';

const root = mkdtempSync(join(tmpdir(), 'render-threads-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const page = (text: string, status = 200) => new Response(text, { status, headers: { 'content-type': 'text/html' } });

/** A published site with page 2 in it, and a new folder to render into. */
function folders(name: string) {
  const published = join(root, name, 'published');
  mkdirSync(join(published, 'page/2'), { recursive: true });
  writeFileSync(join(published, 'page/2/index.html'), '<p>two</p>');
  return { published, renderDir: join(root, name, 'new') };
}

describe('pageWriter', () => {
  it('writes a page as a new file in its folder and takes its hash; hands back a page without a 200', async () => {
    const { renderDir } = folders('plain');
    const write = pageWriter(renderDir);
    const { result, transfer } = await write('https://cars.example.com/page/2/', page('<p>two</p>'));
    expect(result).toMatchObject({ status: 200, sha256: sha256('<p>two</p>') });
    expect(result.body).toBeUndefined();
    expect(transfer).toEqual([]);
    expect(readFileSync(join(renderDir, 'page/2/index.html'), 'utf8')).toBe('<p>two</p>');
    const missing = await write('https://cars.example.com/page/9/', page('gone', 404));
    expect(Buffer.from(missing.result.body!).toString()).toBe('gone');
  });

  it("is the published file where the published page's hash is this page's, else writes the page's own bytes", async () => {
    const { published, renderDir } = folders('linked');
    const write = pageWriter(renderDir, published);
    await write('https://cars.example.com/page/2/', page('<p>two</p>'), sha256('<p>two</p>'));
    expect(statSync(join(renderDir, 'page/2/index.html')).ino).toBe(statSync(join(published, 'page/2/index.html')).ino);
    // Other bytes than the published page's: a file of its own.
    await write('https://cars.example.com/zh-hk/page/2/', page('<p>二</p>'), sha256('<p>two</p>'));
    expect(readFileSync(join(renderDir, 'zh-hk/page/2/index.html'), 'utf8')).toBe('<p>二</p>');
    // The published file gone (a maintainer removed it): written, not a failure.
    await write('https://cars.example.com/page/3/', page('<p>three</p>'), sha256('<p>three</p>'));
    expect(readFileSync(join(renderDir, 'page/3/index.html'), 'utf8')).toBe('<p>three</p>');
    expect(statSync(join(published, 'page/2/index.html')).nlink).toBe(2);
  });

  it("fails where a file is already there (it may be a published file's other name): never written through, nor linked over, nor handed to Astro to write", async () => {
    const { published, renderDir } = folders('taken');
    mkdirSync(join(renderDir, 'page/2'), { recursive: true });
    writeFileSync(join(renderDir, 'page/2/index.html'), 'already here');
    await expect(
      pageWriter(renderDir, published)('https://cars.example.com/page/2/', page('<p>two</p>'), sha256('<p>two</p>')),
    ).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(pageWriter(renderDir)('https://cars.example.com/page/2/', page('<p>two</p>'))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(join(renderDir, 'page/2/index.html'), 'utf8')).toBe('already here');
    expect(statSync(join(published, 'page/2/index.html')).nlink).toBe(1);
  });

  it('hands a page back to Astro, body and all, where it cannot write it (its folder cannot be made)', async () => {
    const { renderDir } = folders('unwritable');
    mkdirSync(renderDir, { recursive: true });
    writeFileSync(join(renderDir, 'page'), 'a file where the folder goes');
    const { result } = await pageWriter(renderDir)('https://cars.example.com/page/2/', page('<p>two</p>'));
    expect(Buffer.from(result.body!).toString()).toBe('<p>two</p>');
  });
});
