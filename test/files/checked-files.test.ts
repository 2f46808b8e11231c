/**
 * Kept files checked before use (src/files/checked-files.ts): every way a file is damaged in place
 * is seen, a whole file is read once per build, and JSON with its own hash is refused when any byte
 * of it changed. The builds that take bytes from each kind of kept file are
 * test/http/damaged-caches.test.ts's.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkedJson, fileSha256, firstDamaged, readCheckedJson } from '../../src/files/checked-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'checked-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const damages: Record<string, (file: string) => void> = {
  truncated: (file) => truncateSync(file, 7),
  'a byte flipped': (file) => {
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1]! ^= 0x01;
    writeFileSync(file, bytes);
  },
  zeroed: (file) => writeFileSync(file, Buffer.alloc(readFileSync(file).length)),
  emptied: (file) => truncateSync(file, 0),
  removed: (file) => rmSync(file),
};

describe('firstDamaged', () => {
  for (const [how, damage] of Object.entries(damages)) {
    it(`names a file ${how} since it was hashed`, () => {
      const file = join(dir, `data-${how}.bin`);
      writeFileSync(file, Buffer.from('0123456789abcdef'.repeat(100)));
      const files = { [`data-${how}.bin`]: fileSha256(file) };
      expect(firstDamaged(dir, files)).toBeUndefined();
      damage(file);
      expect(firstDamaged(dir, files)).toBe(`data-${how}.bin`);
    });
  }
});

describe('readCheckedJson', () => {
  const schema = z.object({ rows: z.int(), key: z.string() });
  it('reads back what it wrote', () => {
    const file = join(dir, 'whole.json');
    writeFileSync(file, checkedJson({ rows: 259, key: 'abc' }));
    expect(readCheckedJson(file, schema)).toEqual({ rows: 259, key: 'abc' });
  });

  for (const [how, damage] of Object.entries(damages)) {
    it(`refuses one ${how}, and says so where it was there`, () => {
      const file = join(dir, `value-${how}.json`);
      writeFileSync(file, checkedJson({ rows: 259, key: 'abc' }));
      damage(file);
      const said: string[] = [];
      expect(readCheckedJson(file, schema, (path) => said.push(path))).toBeUndefined();
      expect(said).toEqual(how === 'removed' ? [] : [file]);
    });
  }

  it('refuses a number changed into another valid number (JSON that still parses)', () => {
    const file = join(dir, 'digit.json');
    writeFileSync(file, checkedJson({ rows: 259, key: 'abc' }));
    writeFileSync(file, readFileSync(file).toString('latin1').replace('259', '258'), 'latin1');
    expect(readCheckedJson(file, schema)).toBeUndefined();
  });
});
