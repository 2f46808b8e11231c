import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { isRecordFile, openRecordFile, readRecordFile, recordChunks, writeRecordFile } from '../../src/data/records-file.ts';
import { carModel } from '../support/models.ts';

const dir = mkdtempSync(join(tmpdir(), 'record-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const records = (count: number) =>
  Array.from({ length: count }, (_, index) => carModel(index + 1, `豐田 Toyota ${index + 1}`, { logo: index % 2 ? null : 'a/b.svg' }));

describe('the records file', () => {
  it.each([0, 1, 10_000, 25_001])('gives back %i records as they were written, in order', (count) => {
    const file = join(dir, `records-${count}.v8`);
    writeRecordFile(file, records(count));
    expect(readRecordFile(file)).toEqual(records(count));
  });

  it('gives back each record with its fields in their order and every value exactly: decimals, -0, booleans, null', () => {
    const file = join(dir, 'exact.v8');
    const written = [
      carModel(1, 'A', {
        min_engine_size: 0.1 + 0.2,
        max_engine_size: -0,
        has_operation_type_auto: false,
        has_operation_type_hand: true,
        logo: null,
      }),
      carModel(2, '範例 B', { min_price: 123_456_789.25, max_price: Number.MAX_SAFE_INTEGER, logo: 'x/y.svg' }),
    ];
    writeRecordFile(file, written);
    const read = readRecordFile(file);
    expect(read.map((record) => Object.keys(record))).toEqual(written.map((record) => Object.keys(record)));
    expect(JSON.stringify(read)).toBe(JSON.stringify(written));
    expect(Object.is(read[0]!.max_engine_size, -0)).toBe(true);
    expect(read.map((record) => [record.has_operation_type_auto, record.has_operation_type_hand])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it('keeps a third of the bytes the records take as V8 objects: each field name once per chunk, not once per record', () => {
    const file = join(dir, 'size.v8');
    writeRecordFile(file, records(10_000));
    expect(readFileSync(file).length).toBeLessThan(serialize(records(10_000)).length / 2);
  });

  it('is read a chunk at a time, none larger than 10,000 records', () => {
    const file = join(dir, 'chunks.v8');
    writeRecordFile(file, records(25_001));
    expect([...recordChunks(file)].map((chunk) => chunk.length)).toEqual([10_000, 10_000, 5_001]);
  });

  it('gives any slice of the records, reading only the chunks that hold it, in any order', () => {
    const file = join(dir, 'slices.v8');
    const written = records(25_001);
    writeRecordFile(file, written);
    const opened = openRecordFile(file);
    try {
      for (const [start, end] of [
        [0, 10],
        [9_995, 10_005],
        [25_000, 25_010],
        [19_990, 20_000],
        [0, 25_001],
        [25_001, 25_011],
        [30_000, 30_010],
        [5, 5],
      ] as const) {
        expect(opened.slice(start, end)).toEqual(written.slice(start, end));
      }
    } finally {
      opened.close();
    }
    const empty = join(dir, 'slices-empty.v8');
    writeRecordFile(empty, []);
    const none = openRecordFile(empty);
    expect(none.slice(0, 10)).toEqual([]);
    none.close();
  });

  it('held open, is read whole, and again, after another process removed it (a cache pruned meanwhile)', () => {
    const file = join(dir, 'pruned.v8');
    writeRecordFile(file, records(25_001));
    const opened = openRecordFile(file);
    rmSync(file);
    try {
      expect([...opened.chunks()].flat()).toEqual(records(25_001));
      expect([...opened.chunks()].map((chunk) => chunk.length)).toEqual([10_000, 10_000, 5_001]);
    } finally {
      opened.close();
    }
  });

  it('refuses a file cut short instead of giving fewer records', () => {
    const file = join(dir, 'cut.v8');
    writeRecordFile(file, records(100));
    truncateSync(file, readFileSync(file).length - 10);
    expect(() => readRecordFile(file)).toThrow(/cut short/);
  });

  it('tells a file written another way (an older version: all records in one piece, or chunks of objects) from its own', () => {
    const own = join(dir, 'own.v8');
    const older = join(dir, 'older.v8');
    const objects = join(dir, 'objects.v8');
    writeRecordFile(own, records(3));
    writeFileSync(older, serialize(records(3)));
    const chunk = serialize(records(3));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(chunk.length);
    writeFileSync(objects, Buffer.concat([Buffer.from('listing-records/1\n'), length, chunk]));
    expect([isRecordFile(own), isRecordFile(older), isRecordFile(objects), isRecordFile(join(dir, 'missing.v8'))]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(() => readRecordFile(older)).toThrow(/not a records file of this version/);
  });
});
