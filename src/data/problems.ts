/**
 * A problem found in a data file, with where it is and which rule it breaks, and the one way
 * problems are written for people (check-data, the build, the tests all print this).
 */

export interface Problem {
  /** The data file, as the user named it. */
  file: string;
  /** 1-based line where the row (or the problem) starts; 0 for the file as a whole. */
  line: number;
  /** 1-based column number in the CSV row, where one column is at fault. */
  column?: number;
  /** The field (header name) at fault, where one is. */
  field?: string;
  /** The rule that is broken, as a sentence fragment ("must be true or false"). */
  rule: string;
  /** The offending text, where there is one. */
  value?: string;
}

const MAX_VALUE_SHOWN = 60;

/** The offending value as a quoted, escaped, shortened JSON string so control characters show. */
function showValue(value: string): string {
  const shown = value.length > MAX_VALUE_SHOWN ? `${value.slice(0, MAX_VALUE_SHOWN)}…` : value;
  return JSON.stringify(shown);
}

/** `data/cars.csv:12: column 8 (min_price): must be greater than 0; got "-5"` */
export function formatProblem(problem: Problem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}` : problem.file;
  return `${where}: ${describeProblem(problem)}`;
}

/** The problem without its file and line: `column 8 (min_price): must be greater than 0; got "-5"` (a workflow annotation gives those apart). */
export function describeProblem(problem: Problem): string {
  const field = problem.field ? ` (${problem.field})` : '';
  const column = problem.column !== undefined ? `column ${problem.column}${field}: ` : problem.field ? `${problem.field}: ` : '';
  const got = problem.value !== undefined ? `; got ${showValue(problem.value)}` : '';
  return `${column}${problem.rule}${got}`;
}

/** The whole report: every problem, then a one-line summary. */
export function formatReport(problems: readonly Problem[]): string {
  const files = new Set(problems.map((problem) => problem.file));
  const summary = `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${[...files].join(', ')}`;
  return [...problems.map(formatProblem), summary].join('\n');
}
