/**
 * The one way to read a data file (src/data/read.ts): what it says of a path that is no data file,
 * that it waits for a file being saved, and what a caller that knows the bytes, or an earlier
 * version of them, is given. What it makes of the text is test/data/load.test.ts's.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RowCounts } from '../../src/data/edit.ts';
import { readDataFile } from '../../src/data/read.ts';
import { inChunks } from '../../src/data/records-file.ts';
import { dataFiles } from '../support/data-files.ts';
import { fixture } from '../support/site.ts';

const files = dataFiles();
const LISTING = readFileSync(fixture('listing-23.csv'));

describe('readDataFile', () => {
  it('says what a path is where it is no data file, as a maintainer would fix it', async () => {
    const folder = join(files.dir, 'folder.csv');
    mkdirSync(folder);
    expect((await readDataFile(folder)).problems).toEqual([
      { file: folder, line: 0, rule: 'is a folder, not a CSV file: set DATA_FILE (or the argument) to the CSV file in it' },
    ]);
    const missing = join(files.dir, 'none.csv');
    expect(await readDataFile(missing)).toMatchObject({ records: [], rows: 0, problems: [{ file: missing, line: 0 }] });
    expect((await readDataFile(missing)).problems[0]?.rule).toMatch(/^does not exist \(ENOENT\): check DATA_FILE/);
  });

  it('waits for a file saved a moment ago to be still, says so once, and reads the version saved last', async () => {
    const file = join(files.dir, 'saving.csv');
    writeFileSync(file, LISTING.subarray(0, 300));
    const said: string[] = [];
    const reading = readDataFile(file, { warn: (line) => said.push(line), quietMs: 400 });
    // The rest of the save, while the read waits.
    setTimeout(() => writeFileSync(file, LISTING), 100);
    const { records, problems, sha256 } = await reading;
    expect(problems).toEqual([]);
    expect(records).toHaveLength(23);
    expect(sha256).toBe(createHash('sha256').update(LISTING).digest('hex'));
    expect(said).toEqual([`  ${file} is being saved: waiting until it is still`]);
  });

  it('gives a caller that knows the bytes their hash alone, validating nothing', async () => {
    const file = files.save(LISTING, 'known.csv');
    let told: string | undefined;
    const read = await readDataFile(file, { against: (sha256) => ((told = sha256), 'known') });
    expect(told).toBe(createHash('sha256').update(LISTING).digest('hex'));
    expect(read).toEqual({ records: [], problems: [], rows: 0, sha256: told, known: true });
  });

  it('validates an edit against an earlier version only in the rows that differ, with the records of a whole read', async () => {
    const earlier = await readDataFile(files.save(LISTING, 'earlier.csv'));
    const lines = LISTING.toString('utf8').split('\n');
    lines[5] = lines[5]!.replace(/^((?:[^,]*,){8})[^,]*/, '$1777777');
    const edited = files.save(lines.join('\n'), 'edited.csv');
    let counts: RowCounts | undefined;
    const quick = await readDataFile(edited, {
      progress: { onRows: () => expect.fail('every row was read'), onChangedRows: (rows) => (counts = rows) },
      against: () => ({ body: earlier.text!.body, rows: earlier.rows, records: () => inChunks(earlier.records) }),
    });
    expect(counts).toEqual({ validated: 1, changed: 1, added: 0, unchanged: 22, removed: 0 });
    expect(quick.edit?.changed).toEqual([4]);
    const whole = await readDataFile(edited);
    expect(whole.edit).toBeUndefined();
    expect(quick.records).toEqual(whole.records);
    expect(quick.records[4]?.max_price).toBe(777777);
  });
});
