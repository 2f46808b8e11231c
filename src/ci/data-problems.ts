/** A data file's problems where a workflow shows them: as annotations on the file, and in the job summary. */
import { describeProblem, type Problem } from '../data/problems.ts';
import type { TextPosition } from '../data/positions.ts';
import { markdownCell } from './job-summary.ts';
import { repositoryPath, workflowCommand, type Environment } from './workflow-commands.ts';

/** A problem of a data file as an error annotation on its line and the column where its field begins. */
export function problemAnnotation(problem: Problem, position: TextPosition | undefined, environment: Environment = process.env): string {
  const file = repositoryPath(problem.file, environment);
  const title = problem.field !== undefined ? `${problem.field}: invalid value` : 'invalid data file';
  const message = file === undefined ? `${problem.file}: ${describeProblem(problem)}` : describeProblem(problem);
  return workflowCommand(
    'error',
    {
      file,
      line: position?.line ?? (problem.line > 0 ? problem.line : undefined),
      col: position?.column,
      title,
    },
    message,
  );
}

/** Problems listed in a summary, at most: GitHub takes up to 1 MiB of summary per step. */
const PROBLEMS_LISTED = 500;

/** A data file's problems as the job summary's Markdown: a table of every problem (up to PROBLEMS_LISTED), line, column, field and what is wrong. */
export function problemsSummary(problems: readonly Problem[], summaryLine: string): string {
  const rows = problems.slice(0, PROBLEMS_LISTED).map(({ column, field, ...problem }) => {
    // The rule and the value alone: the line, the column and the field have cells of their own.
    const cells = [
      problem.line > 0 ? String(problem.line) : '',
      column !== undefined ? String(column) : '',
      field ?? '',
      describeProblem(problem),
    ];
    return `| ${cells.map(markdownCell).join(' | ')} |`;
  });
  const more =
    problems.length > PROBLEMS_LISTED
      ? [`\nand ${problems.length - PROBLEMS_LISTED} more: run \`npm run check-data\` for all of them.`]
      : [];
  return [
    `### Data check: ${markdownCell(summaryLine)}`,
    '',
    '| line | column | field | problem |',
    '| ---: | ---: | --- | --- |',
    ...rows,
    ...more,
    '',
  ].join('\n');
}
