import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { isRecordFile, readRecordFile, recordChunks, writeRecordFile } from '../../src/data/record-store.ts';
import { carModel } from '../support/models.ts';

const dir = mkdtempSync(join(tmpdir(), 'record-file-'));
const records = (count: number) => Array.from({ length: count }, (_, index) => carModel(index + 1, `豐田 Toyota ${index + 1}`, { logo: index % 2 ? null : 'a/b.svg' }));

describe('the records file', () => {
  it.each([0, 1, 10_000, 25_001])('gives back %i records as they were written, in order', (count) => {
    const file = join(dir, `records-${count}.v8`);
    writeRecordFile(file, records(count));
    expect(readRecordFile(file)).toEqual(records(count));
  });

  it('is read a chunk at a time, none larger than 10,000 records', () => {
    const file = join(dir, 'chunks.v8');
    writeRecordFile(file, records(25_001));
    expect([...recordChunks(file)].map((chunk) => chunk.length)).toEqual([10_000, 10_000, 5_001]);
  });

  it('refuses a file cut short instead of giving fewer records', () => {
    const file = join(dir, 'cut.v8');
    writeRecordFile(file, records(100));
    truncateSync(file, readFileSync(file).length - 10);
    expect(() => readRecordFile(file)).toThrow(/cut short/);
  });

  it('tells a file written another way (an older version, all records in one piece) from its own', () => {
    const own = join(dir, 'own.v8');
    const older = join(dir, 'older.v8');
    writeRecordFile(own, records(3));
    writeFileSync(older, serialize(records(3)));
    expect([isRecordFile(own), isRecordFile(older), isRecordFile(join(dir, 'missing.v8'))]).toEqual([true, false, false]);
    expect(() => readRecordFile(older)).toThrow(/not a records file of this version/);
  });
});
