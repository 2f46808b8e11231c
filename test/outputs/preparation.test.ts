/**
 * The prepared data (src/outputs/preparation.ts) on a real cache folder: a data file is validated once
 * and its preparation reused; bad data gives its problems and no preparation; an edit is checked
 * row by row against the earlier preparation and gives the records of a whole validation; a
 * damaged preparation is said, removed and made again; after a killed build (`trusted: false`)
 * nothing kept is taken.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareRecords, preparedRecordsFile, type PrepareOptions, type PreparationResult } from '../../src/outputs/preparation.ts';
import { readRecordFile } from '../../src/data/records-file.ts';
import { fixture, tempDir } from '../support/site.ts';
import { summaryOf } from '../../src/listing/summary.ts';
import { deserialize } from 'node:v8';

const ASSETS = 'https://img.example.com';
let workspace: string | undefined;
afterEach(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
  workspace = undefined;
});

/**
 * A workspace with `text` as its data file, saved a while ago (a file saved a moment ago is waited
 * for: settled-read.ts). Its `root` holds no sources: the code fingerprint is the same for every
 * preparation of the test.
 */
function project(text: string) {
  const dir = (workspace = tempDir('prepared'));
  const dataFile = join(dir, 'cars.csv');
  const said: string[] = [];
  const save = (next: string) => {
    writeFileSync(dataFile, next);
    const past = new Date(Date.now() - 10_000);
    utimesSync(dataFile, past, past);
  };
  save(text);
  const options: PrepareOptions = {
    root: dir,
    preparationsDir: join(dir, 'cache'),
    dataFile,
    assetsUrl: ASSETS,
    warn: (line) => said.push(line),
  };
  return { dir, dataFile, options, said, save };
}

const LISTING = readFileSync(fixture('listing-23.csv'), 'utf8');
/** The listing with row `row`'s (1-based) max_price (the 9th field of a plain row) changed. */
const withPrice = (text: string, row: number, price: string) =>
  text
    .split('\n')
    .map((line, index) => (index === row ? line.replace(/^((?:[^,]*,){8})[^,]*/, `$1${price}`) : line))
    .join('\n');

function prepared(result: PreparationResult) {
  if ('problems' in result) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`);
  return result;
}

describe('prepared data', () => {
  it('is validated once: the same bytes again take the preparation, without validating', async () => {
    const { options } = project(LISTING);
    const first = prepared(await prepareRecords(options));
    expect(first.preparation.validated).toBe(true);
    expect(first.records).toHaveLength(23);
    expect(first.preparation.rows).toBe(23);
    expect(first.preparation.format).toBe('UTF-8, comma-separated');
    expect(readRecordFile(first.preparation.recordsFile)).toEqual(first.records);
    expect(deserialize(readFileSync(first.preparation.summaryFile))).toEqual(summaryOf(first.records!));
    const again = prepared(await prepareRecords(options));
    expect(again.preparation).toEqual({ ...first.preparation, validated: false });
    expect(again.records).toBeUndefined();
    expect(preparedRecordsFile(options.preparationsDir, first.preparation.key)).toBe(first.preparation.recordsFile);
  });

  it('is another preparation for other bytes or another assets address', async () => {
    const { options, save } = project(LISTING);
    const first = prepared(await prepareRecords(options));
    expect(prepared(await prepareRecords({ ...options, assetsUrl: 'https://cdn.example.org' })).preparation).toMatchObject({
      validated: true,
    });
    save(withPrice(LISTING, 4, '999999'));
    const edited = prepared(await prepareRecords(options));
    expect(edited.preparation.validated).toBe(true);
    expect(edited.preparation.key).not.toBe(first.preparation.key);
    expect(edited.preparation.dataSha256).not.toBe(first.preparation.dataSha256);
  });

  it('is no preparation for bad data: every problem, and nothing kept', async () => {
    const { options } = project(readFileSync(fixture('bad/many-problems.csv'), 'utf8'));
    const result = await prepareRecords(options);
    expect('problems' in result && result.problems.length).toBeGreaterThan(1);
    expect(existsSync(options.preparationsDir) ? readdirSync(options.preparationsDir) : []).toEqual([]);
  });

  it('of an edit is checked row by row against the earlier one, and gives the records of a whole validation', async () => {
    const { options, save } = project(LISTING);
    const earlier = prepared(await prepareRecords(options));
    const edit = withPrice(LISTING, 5, '777777');
    save(edit);
    let counts: unknown;
    const edited = prepared(
      await prepareRecords({ ...options, earlier: earlier.preparation.key, progress: { onChangedRows: (rows) => (counts = rows) } }),
    );
    expect(counts).toEqual({ validated: 1, changed: 1, added: 0, unchanged: 22, removed: 0 });
    const whole = prepared(await prepareRecords({ ...options, preparationsDir: join(options.preparationsDir, '..', 'other-cache') }));
    expect(edited.records).toEqual(whole.records);
    expect(readFileSync(edited.preparation.recordsFile)).toEqual(readFileSync(whole.preparation.recordsFile));
    // Their values: V8 may write the same array densely or sparsely (its elements' kind), so not their bytes.
    expect(deserialize(readFileSync(edited.preparation.summaryFile))).toEqual(deserialize(readFileSync(whole.preparation.summaryFile)));
    expect(edited.records?.[4]?.max_price).toBe(777777);
  });

  it("of an edit keeps the earlier summary's makes only where no name or logo changed", async () => {
    const { options, save } = project(LISTING);
    const earlier = prepared(await prepareRecords(options));
    const summaryOfFile = (file: string) => deserialize(readFileSync(file)) as ReturnType<typeof summaryOf>;
    // A new make (a name of a make no other row has): the make table is made again.
    const edit = LISTING.split('\n')
      .map((line, index) => (index === 3 ? line.replace(/^([^,]*),[^,]*/, '$1,新車 Newmake Alpha') : line))
      .join('\n');
    save(edit);
    const edited = prepared(await prepareRecords({ ...options, earlier: earlier.preparation.key }));
    const whole = prepared(await prepareRecords({ ...options, preparationsDir: join(options.preparationsDir, '..', 'other-cache') }));
    expect(summaryOfFile(edited.preparation.summaryFile)).toEqual(summaryOfFile(whole.preparation.summaryFile));
    expect(summaryOfFile(edited.preparation.summaryFile).makes.map((make) => make.latin)).toContain('Newmake');
    expect(summaryOfFile(edited.preparation.summaryFile)).not.toEqual(summaryOfFile(earlier.preparation.summaryFile));
  });

  it.each([
    ['records.v8 truncated', (file: string) => truncateSync(file, 10)],
    [
      'text.csv flipped',
      (file: string) =>
        writeFileSync(
          file,
          Buffer.from(readFileSync(file)).map((byte, index) => (index === 5 ? byte ^ 1 : byte)),
        ),
    ],
    ['prepared.json emptied', (file: string) => writeFileSync(file, '')],
    [
      'summary.v8 flipped',
      (file: string) =>
        writeFileSync(
          file,
          Buffer.from(readFileSync(file)).map((byte, index, bytes) => (index === bytes.length - 1 ? byte ^ 1 : byte)),
        ),
    ],
  ])('damaged (%s) is said, removed and made again', async (what, damage) => {
    const { options, said } = project(LISTING);
    const first = prepared(await prepareRecords(options));
    const name = what.split(' ')[0]!;
    damage(join(options.preparationsDir, first.preparation.key, name));
    const again = prepared(await prepareRecords(options));
    expect(said).toEqual([
      expect.stringMatching(
        new RegExp(`${name.replace('.', '\\.')} is damaged \\(its bytes are not those written and hashed\\): made again, not used\\.$`),
      ),
    ]);
    expect(again.preparation.validated).toBe(true);
    expect(again.records).toEqual(first.records);
    expect(readRecordFile(again.preparation.recordsFile)).toEqual(first.records);
    // Made whole again: taken the next time.
    expect(prepared(await prepareRecords(options)).preparation.validated).toBe(false);
  });

  it('keeps the two used last besides the one in use, and one whose downloads are being written aside, until an hour has passed', async () => {
    const { options, save } = project(LISTING);
    const keys: string[] = [];
    const prepare = async (row: number) => {
      save(withPrice(LISTING, row, String(9000000 + row)));
      keys.push(prepared(await prepareRecords(options)).preparation.key);
    };
    await prepare(1);
    // Its downloads written aside by another process (downloads-cache.ts), which may still be at it.
    const aside = join(options.preparationsDir, keys[0]!, 'downloads.4711.tmp');
    mkdirSync(aside);
    for (const row of [2, 3, 4]) await prepare(row);
    const cached = () =>
      readdirSync(options.preparationsDir)
        .filter((name) => !name.startsWith('.trash-'))
        .sort();
    expect(cached()).toEqual([keys[0], keys[1], keys[2], keys[3]].sort());
    // Left an hour ago: a killed process's, not one at work.
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    utimesSync(aside, hoursAgo, hoursAgo);
    // A removal a killed process began: begun again.
    mkdirSync(join(options.preparationsDir, '.trash-0123456789abcdef0123456789abcdef', 'downloads'), { recursive: true });
    await prepare(5);
    // Renamed at once, and removed in the background, the build not waiting for it.
    expect(cached()).toEqual([keys[2], keys[3], keys[4]].sort());
    await expect.poll(() => readdirSync(options.preparationsDir).sort(), { timeout: 10_000 }).toEqual([keys[2], keys[3], keys[4]].sort());
  });
});
