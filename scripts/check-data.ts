/**
 * `npm run check-data [file]`: validates the data file alone, fast, without building. Prints every
 * problem (file, line, column, rule, value) and exits 1 if there is any. As a step of a GitHub
 * Actions job it writes each problem as an error annotation on the file's line and column instead,
 * so that a pull request shows it on the file, and the result in the job summary.
 */
import { performance } from 'node:perf_hooks';
import { loadConfigOrExit } from '../src/config.ts';
import { pageCount } from '../src/listing/pagination.ts';
import { formatName } from '../src/data/load.ts';
import { readDataFile } from '../src/data/read.ts';
import { fieldPosition } from '../src/data/positions.ts';
import { formatReport, type Problem } from '../src/data/problems.ts';
import { problemAnnotation, problemsSummary } from '../src/ci/data-problems.ts';
import { appendJobSummary } from '../src/ci/job-summary.ts';
import { inGitHubActions } from '../src/ci/workflow-commands.ts';
import { progressLine } from './cli.ts';

const config = loadConfigOrExit();
const file = process.argv[2] ?? config.dataFile;
const started = performance.now();
// Validation alone: the records themselves are not needed, only whether every row is one.
const { rows, problems, text } = await readDataFile(file, { progress: { onRows: progressLine('rows validated') }, keepRecords: false });
const seconds = ((performance.now() - started) / 1000).toFixed(2);

/** Each problem as an annotation, at the column where its field begins in the text read. */
function annotations(found: readonly Problem[]): string[] {
  return found.map((problem) => {
    const position =
      text === undefined || problem.column === undefined || problem.line === 0
        ? undefined
        : fieldPosition(text, problem.line, problem.column);
    return problemAnnotation(problem, position);
  });
}

if (problems.length > 0) {
  const report = formatReport(problems);
  if (inGitHubActions()) {
    console.log(annotations(problems).join('\n'));
    const summaryLine = report.slice(report.lastIndexOf('\n') + 1);
    console.error(summaryLine);
    appendJobSummary(problemsSummary(problems, summaryLine));
  } else console.error(report);
  process.exit(1);
}
const read = text ? `, read as ${formatName(text.format)}` : '';
const valid = `${file}: ${rows} rows valid, ${pageCount(rows)} pages${read} (${seconds} s)`;
console.log(valid);
if (inGitHubActions()) appendJobSummary(`### Data check: ${valid}\n`);
