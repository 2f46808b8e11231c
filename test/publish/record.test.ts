/**
 * A build's record, as the next build reads it: given back as written; a record of another
 * version, one whose bytes changed (truncated, flipped, zeroed, emptied) or one that is not there
 * is no record, so nothing is taken from that build on trust.
 */
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withHash, withoutHash } from '../../src/files/checked-files.ts';
import { readRecord, writeRecord, type BuildRecord } from '../../src/publish/record.ts';
import { tempDir } from '../support/site.ts';

let workspace: string | undefined;
afterEach(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
  workspace = undefined;
  vi.restoreAllMocks();
});

const record: Omit<BuildRecord, 'version'> = {
  fingerprint: 'f'.repeat(64),
  dataKey: 'd'.repeat(32),
  keys: { json: ['a', 'b'], html: ['c', 'd'], count: 12, listing: 'makes' },
  rendered: { json: Uint8Array.of(1, 0), html: Uint8Array.of(0, 1) },
  files: ['index.html', 'car/api/capture_car/latest/page/1.json', 'car/api/capture_car/latest/page/2.json'],
  bytes: 12_345,
};

/** A build folder with the record written, and the record's one file. */
function written(): { dir: string; file: string } {
  const dir = (workspace = tempDir('record'));
  writeRecord(dir, record);
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  return { dir, file: join(dir, files[0]!) };
}

describe("a build's record", () => {
  it('is read back as it was written', () => {
    const { dir } = written();
    expect(readRecord(dir)).toEqual({ ...record, version: expect.any(Number) });
  });

  it('is none where there is none', () => {
    expect(readRecord((workspace = tempDir('record')))).toBeUndefined();
  });

  it('is none when it is of another version, however whole', () => {
    const { dir, file } = written();
    const body = deserialize(withoutHash(readFileSync(file))!) as BuildRecord;
    writeFileSync(file, withHash(serialize({ ...body, version: body.version + 1 })));
    expect(readRecord(dir)).toBeUndefined();
    // The same bytes with this version again are a record: it was the version alone.
    writeFileSync(file, withHash(serialize(body)));
    expect(readRecord(dir)).toEqual(body);
  });

  it.each([
    ['truncated', (file: string, bytes: Buffer) => truncateSync(file, bytes.length - 7)],
    [
      'with a byte flipped',
      (file: string, bytes: Buffer) =>
        writeFileSync(file, Buffer.from(bytes).fill(bytes[bytes.length - 3]! ^ 0xff, bytes.length - 3, bytes.length - 2)),
    ],
    ['zeroed', (file: string, bytes: Buffer) => writeFileSync(file, Buffer.alloc(bytes.length))],
    ['emptied', (file: string) => writeFileSync(file, '')],
  ])('is none, and said to be damaged, when %s', (_, damage) => {
    const { dir, file } = written();
    damage(file, readFileSync(file));
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(readRecord(dir)).toBeUndefined();
    expect(said).toHaveBeenCalledWith(
      expect.stringMatching(/build-record\.v8 is damaged \(its bytes are not those written and hashed\): made again, not used\.$/),
    );
  });

  it('is written whole or not at all: nothing is left beside it', () => {
    const { dir } = written();
    writeRecord(dir, { ...record, bytes: 1 });
    expect(readdirSync(dir)).toHaveLength(1);
    expect(readRecord(dir)?.bytes).toBe(1);
  });
});
