/**
 * The default dataset as LibreOffice Calc writes it back: opened in Calc, saved as .ods and .xlsx,
 * and exported to CSV with Calc's own filters. The fixtures were made by
 *   bash test/fixtures/spreadsheet/make.sh
 * (soffice --headless --convert-to "csv:Text - txt - csv (StarCalc):<separator>,34,<charset>,…"),
 * so these tests do not need LibreOffice. Each variant either reads into exactly the records (and so
 * the pages) of the original, or is refused with the one problem that names what is wrong.
 */
import { describe, expect, it } from 'vitest';
import { pageNumbers } from '../../src/listing/pagination.ts';
import { readDataFile } from '../../src/data/read.ts';
import { formatProblem, formatReport } from '../../src/data/problems.ts';
import { serialisePage } from '../../src/listing/serialise.ts';
import { fixture, projectRoot } from '../support/site.ts';

const original = await readDataFile(`${projectRoot}/data/captured-car-models.csv`);
const addresses = { baseUrl: 'https://cars.example.com', assetsUrl: 'https://img.example.com' };
const pagesOf = (records: typeof original.records) => pageNumbers(records.length).map((page) => serialisePage(records, page, addresses));

describe('Calc exports of the default dataset', () => {
  it.each([
    ['comma-quoted.csv', 'UTF-8', ',', 'comma, every text cell quoted, TRUE/FALSE'],
    ['semicolon.csv', 'UTF-8', ';', 'semicolon, from .xlsx'],
    ['semicolon-quoted.csv', 'UTF-8', ';', 'semicolon, every text cell quoted (csv-parse alone fails on it)'],
    ['tab.csv', 'UTF-8', '\t', 'tab, from .xlsx'],
    ['unicode-text.txt', 'UTF-16LE', '\t', 'Unicode (UTF-16LE with BOM) and tab, as "Unicode Text"'],
  ])('%s reads as the original: byte-identical pages (%s, %j: %s)', async (name, encoding, separator) => {
    const result = await readDataFile(fixture(`spreadsheet/${name}`));
    expect(result.problems.map(formatProblem)).toEqual([]);
    expect(result.text?.format).toEqual({ encoding, separator });
    expect(result.records).toHaveLength(original.records.length);
    expect(pagesOf(result.records)).toEqual(pagesOf(original.records));
  });

  it('refuses the Big5-HKSCS export with one problem naming the encoding and how to export', async () => {
    const file = fixture('spreadsheet/big5-hkscs.csv');
    const { records, problems } = await readDataFile(file);
    expect(records).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(formatReport(problems)).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2: is not UTF-8 text: 259 lines \\(2, 3, 4, 5, 6, … 260\\) have bytes .*Big5-HKSCS.*"CSV UTF-8"`,
      ),
    );
  });
});
