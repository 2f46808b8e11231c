/** The job summary: Markdown appended to the file GITHUB_STEP_SUMMARY names, shown on the run's page. */
import { appendFileSync } from 'node:fs';
import type { Environment } from './workflow-commands.ts';

/**
 * Appends `markdown` to the job summary where the step has one (GITHUB_STEP_SUMMARY); says whether
 * it did. A summary that cannot be written stops the command with the error: the runner made that
 * file for this step.
 */
export function appendJobSummary(markdown: string, environment: Environment = process.env): boolean {
  const file = environment['GITHUB_STEP_SUMMARY'];
  if (file === undefined || file === '') return false;
  appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  return true;
}

/** Text for a Markdown table's cell: no line break, `|` and `\` escaped, `<` and `&` as entities (no HTML from the data). */
export const markdownCell = (text: string): string =>
  text
    .replaceAll('\\', '\\\\')
    .replaceAll('|', '\\|')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replace(/\r?\n|\r/g, ' ');
