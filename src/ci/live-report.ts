/**
 * The live check's report: as text for a terminal or a build log, as Markdown for the job summary
 * of a pull request, and as JSON for a program. Long lists are cut in the text and the Markdown
 * (the JSON holds them whole): a change of the row count changes every page.
 */
import type { Config } from '../config.ts';
import { counted } from '../listing/format.ts';
import { SHRINK_LIMIT_PERCENT } from '../publish/shrink-guard.ts';
import { markdownCell } from './job-summary.ts';
import type { LiveChanges } from './live-changes.ts';

/** What the check compared: the live site's address and build, and the data file built. */
export interface LiveCheck extends Pick<Config, 'dataFile' | 'allowShrink'> {
  liveUrl: string;
  liveBuild: string | undefined;
}

/** URLs and ids shown in the text and the summary, at most. */
const SHOWN = 50;

const listed = (items: readonly (string | number)[], shown = SHOWN) =>
  items.length <= shown ? items.join(', ') : `${items.slice(0, shown).join(', ')} and ${counted(items.length - shown)} more`;

/** The shrink guard's verdict, as one sentence. */
function shrinkVerdict(changes: LiveChanges, { allowShrink }: Pick<LiveCheck, 'allowShrink'>): string {
  const removed = changes.rows.removed.length;
  const share = changes.published === 0 ? '0' : ((removed / changes.published) * 100).toFixed(1);
  const measured = `${counted(removed)} of the ${counted(changes.published)} published rows removed (${share} %; the limit is ${SHRINK_LIMIT_PERCENT} %)`;
  if (!changes.shrinks) return `passes: ${measured}`;
  if (allowShrink) return `would refuse, allowed by ALLOW_SHRINK=1: ${measured}`;
  return `refuses: ${measured}. Is the export cut short? If those rows are really gone, set ALLOW_SHRINK=1`;
}

/** The rows added, removed and changed, each kind that has any with its ids (up to SHOWN): `[what, ids]`. */
function rowLines({ rows: { added, removed, changed } }: LiveChanges): [string, string][] {
  const kinds: [string, readonly (string | number)[]][] = [
    ['added (id)', added],
    ['removed (id)', removed],
    ['changed (id: fields)', changed.map(({ id, fields }) => `${id}: ${fields.join(' ')}`)],
  ];
  return kinds.filter(([, ids]) => ids.length > 0).map(([what, ids]) => [what, listed(ids)]);
}

const rowsLine = ({ rows }: LiveChanges) =>
  `+${counted(rows.added.length)} −${counted(rows.removed.length)} ~${counted(rows.changed.length)} rows`;

function pagesLine({ pages }: LiveChanges): string {
  const count = pages.before === pages.after ? `${counted(pages.after)} pages` : `${counted(pages.before)} → ${counted(pages.after)} pages`;
  return `${counted(pages.json)} JSON and ${counted(pages.html)} HTML pages change (${count})`;
}

/** The report as text: what changes, then every URL (up to SHOWN), then the guard's verdict. */
export function liveReportText(changes: LiveChanges, check: LiveCheck): string {
  const lines = [`${check.dataFile} against the live site ${check.liveUrl} (build ${check.liveBuild ?? 'unnamed'}):`];
  for (const name of changes.otherAddresses) lines.push(`  ${name} differs from the live site's: every page changes`);
  lines.push(`  rows: ${rowsLine(changes)}`, ...rowLines(changes).map(([what, ids]) => `    ${what}: ${ids}`));
  if (changes.unchanged) lines.push('  files: none changes; only manifest.json is published anew');
  else {
    lines.push(`  pages: ${pagesLine(changes)}`);
    lines.push(`  files: ${counted(changes.files.changed.length)} changed or new, ${counted(changes.files.removed.length)} removed`);
  }
  lines.push(`  URLs that change (${counted(changes.urls.length)}):`, ...changes.urls.slice(0, SHOWN).map((url) => `    ${url}`));
  if (changes.urls.length > SHOWN) lines.push(`    and ${counted(changes.urls.length - SHOWN)} more`);
  lines.push(`  shrink guard: ${shrinkVerdict(changes, check)}`);
  return lines.join('\n');
}

export function liveReportMarkdown(changes: LiveChanges, check: LiveCheck): string {
  const cell = (text: string) => markdownCell(text);
  const lines = [
    `### What this data publishes on ${cell(check.liveUrl)}`,
    '',
    `Compared with the live build ${cell(check.liveBuild ?? 'unnamed')}: ${cell(check.dataFile)} as built here.`,
    '',
    ...changes.otherAddresses.map((name) => `> **${name} differs from the live site's**: every page changes.\n`),
    '| | |',
    '| --- | --- |',
    `| rows | ${rowsLine(changes)} |`,
    ...rowLines(changes).map(([what, ids]) => `| ${cell(what)} | ${cell(ids)} |`),
    changes.unchanged ? '| pages | none: only manifest.json is published anew |' : `| pages | ${pagesLine(changes)} |`,
    `| files | ${counted(changes.files.changed.length)} changed or new, ${counted(changes.files.removed.length)} removed |`,
    `| shrink guard | ${changes.shrinks && !check.allowShrink ? '**' : ''}${cell(shrinkVerdict(changes, check))}${changes.shrinks && !check.allowShrink ? '**' : ''} |`,
    '',
    `<details><summary>${counted(changes.urls.length)} URLs change</summary>`,
    '',
    // As they are: URLs of the site's own address (a validated URL), so that they can be copied.
    ...changes.urls.slice(0, SHOWN * 4).map((url) => `- ${url}`),
    ...(changes.urls.length > SHOWN * 4 ? [`- and ${counted(changes.urls.length - SHOWN * 4)} more`] : []),
    '',
    '</details>',
    '',
  ];
  return lines.join('\n');
}
