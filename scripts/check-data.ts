/**
 * `npm run check-data [file]`: validates the data file alone, fast, without building. Prints every
 * problem (file, line, column, rule, value) and exits 1 if there is any.
 */
import { performance } from 'node:perf_hooks';
import { loadConfigOrExit } from '../src/config.ts';
import { pageCount } from '../src/listing/pagination.ts';
import { SEPARATORS } from '../src/data/load.ts';
import { loadFileOnThreads } from '../src/data/load-threads.ts';
import { formatReport } from '../src/data/problems.ts';
import { progressLine } from './cli.ts';

const config = loadConfigOrExit();
const file = process.argv[2] ?? config.dataFile;
const started = performance.now();
// Validation alone: the records themselves are not needed, only whether every row is one.
const { rows, problems, format } = await loadFileOnThreads(file, { onRows: progressLine('rows validated') }, { keepRecords: false });
const seconds = ((performance.now() - started) / 1000).toFixed(2);

if (problems.length > 0) {
  console.error(formatReport(problems));
  process.exit(1);
}
const read = format ? `, read as ${format.encoding}, ${SEPARATORS[format.separator]}-separated` : '';
console.log(`${file}: ${rows} rows valid, ${pageCount(rows)} pages${read} (${seconds} s)`);
