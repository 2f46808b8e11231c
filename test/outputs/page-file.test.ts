/**
 * How a page file is written (src/outputs/page-file.ts): a new page never goes through a file
 * already there; a page written through a file the folder owns keeps that file (its inode) and
 * ends with exactly the new bytes, whether the old ones were longer or shorter.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeNewPage, writePageThrough } from '../../src/outputs/page-file.ts';

const root = mkdtempSync(join(tmpdir(), 'page-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a page file', () => {
  it('written new is an error where a file is there already, which keeps its bytes', () => {
    const file = join(root, 'new.json');
    writeNewPage(file, Buffer.from('first'));
    expect(() => writeNewPage(file, Buffer.from('second'))).toThrow(/EEXIST/);
    expect(readFileSync(file, 'utf8')).toBe('first');
  });

  it('written through keeps the file and holds exactly the new bytes, longer or shorter than the old', () => {
    const file = join(root, 'through.html');
    writeFileSync(file, 'x'.repeat(20_000));
    const inode = statSync(file).ino;
    for (const text of ['short', `${'é'.repeat(9_000)} longer`, 'x'.repeat(70_000), '']) {
      writePageThrough(file, Buffer.from(text));
      expect(statSync(file).ino).toBe(inode);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });

  it('written through where there is no file is made', () => {
    const file = join(root, 'none.html');
    writePageThrough(file, Buffer.from('made'));
    expect(readFileSync(file, 'utf8')).toBe('made');
  });
});
