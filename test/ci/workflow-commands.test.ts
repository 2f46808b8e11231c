import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { problemAnnotation, problemsSummary } from '../../src/ci/data-problems.ts';
import { appendJobSummary, markdownCell } from '../../src/ci/job-summary.ts';
import { escapeData, escapeProperty, inGitHubActions, repositoryPath, workflowCommand } from '../../src/ci/workflow-commands.ts';
import { decodeCsv, type CsvText } from '../../src/data/load.ts';
import { fieldPosition } from '../../src/data/positions.ts';

/**
 * A workflow command read back as GitHub documents it: `::name key=value,…::message`, the message
 * and values unescaped (`%25` → `%`, `%0D` → CR, `%0A` → LF; in values `%3A` → `:`, `%2C` → `,`).
 * A value must hold no raw `,` or `:` (they end it) and a message no raw CR or LF (it ends the line).
 */
function readCommand(line: string): { command: string; properties: Record<string, string>; message: string } {
  const match = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/s.exec(line);
  if (!match) throw new Error(`not a workflow command: ${line}`);
  const [, command, given = '', message = ''] = match;
  if (/[\r\n]/.test(message)) throw new Error('a raw line break in the message');
  const unescapeData = (text: string) => text.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
  const unescapeProperty = (text: string) => unescapeData(text.replaceAll('%3A', ':').replaceAll('%2C', ','));
  const properties = Object.fromEntries(
    given
      .split(',')
      .filter((pair) => pair !== '')
      .map((pair) => {
        const [key, value] = pair.split('=', 2) as [string, string];
        return [key, unescapeProperty(value)];
      }),
  );
  return { command: command!, properties, message: unescapeData(message) };
}

const text = (csv: string): CsvText => {
  const decoded = decodeCsv(Buffer.from(csv), 'cars.csv');
  if ('problems' in decoded) throw new Error('not CSV');
  return decoded;
};

describe('workflow commands', () => {
  it('escapes a message and a property value as GitHub documents it', () => {
    expect(escapeData('50% off\r\nnext: a, b')).toBe('50%25 off%0D%0Anext: a, b');
    expect(escapeProperty('50% off\r\nnext: a, b')).toBe('50%25 off%0D%0Anext%3A a%2C b');
  });

  it('writes an error with file, line, column and title that reads back as given, whatever they hold', () => {
    const line = workflowCommand(
      'error',
      { file: 'data/a,b:c.csv', line: 5, col: 12, title: 'min_price: 100%' },
      'got "0"\nline two, and: more',
    );
    expect(line).toBe('::error file=data/a%2Cb%3Ac.csv,line=5,col=12,title=min_price%3A 100%25::got "0"%0Aline two, and: more');
    expect(readCommand(line)).toEqual({
      command: 'error',
      properties: { file: 'data/a,b:c.csv', line: '5', col: '12', title: 'min_price: 100%' },
      message: 'got "0"\nline two, and: more',
    });
  });

  it('leaves out the properties not given', () => {
    expect(workflowCommand('notice', {}, 'done')).toBe('::notice::done');
    expect(workflowCommand('warning', { title: 'Deploy' }, 'skipped')).toBe('::warning title=Deploy::skipped');
  });

  it('runs as a step only where GITHUB_ACTIONS is true', () => {
    expect(inGitHubActions({ GITHUB_ACTIONS: 'true' })).toBe(true);
    expect(inGitHubActions({})).toBe(false);
    expect(inGitHubActions({ GITHUB_ACTIONS: 'false' })).toBe(false);
  });
});

describe("a data file's problem as an annotation", () => {
  const workspace = '/home/runner/work/site/site';
  const environment = { GITHUB_WORKSPACE: workspace };

  it('names the file by its path in the repository, its line, its column and the field', () => {
    const problem = {
      file: `${workspace}/data/cars.csv`,
      line: 5,
      column: 8,
      field: 'min_price',
      rule: 'must be greater than 0',
      value: '0',
    };
    expect(readCommand(problemAnnotation(problem, { line: 5, column: 31 }, environment))).toEqual({
      command: 'error',
      properties: { file: 'data/cars.csv', line: '5', col: '31', title: 'min_price: invalid value' },
      message: 'column 8 (min_price): must be greater than 0; got "0"',
    });
  });

  it('takes a path relative to the checkout as it is, and a problem of the whole file without a line', () => {
    expect(repositoryPath('data/cars.csv', environment)).toBeUndefined();
    expect(repositoryPath('data/cars.csv', { GITHUB_WORKSPACE: process.cwd() })).toBe('data/cars.csv');
    const whole = { file: 'data/cars.csv', line: 0, rule: 'is empty' };
    expect(readCommand(problemAnnotation(whole, undefined, { GITHUB_WORKSPACE: process.cwd() }))).toEqual({
      command: 'error',
      properties: { file: 'data/cars.csv', title: 'invalid data file' },
      message: 'is empty',
    });
  });

  it('names a file outside the checkout in the message, with no file property', () => {
    const problem = { file: '/tmp/cars.csv', line: 2, rule: 'has 3 fields but the header has 13' };
    expect(readCommand(problemAnnotation(problem, undefined, environment))).toEqual({
      command: 'error',
      properties: { line: '2', title: 'invalid data file' },
      message: '/tmp/cars.csv: has 3 fields but the header has 13',
    });
  });
});

describe('where a field begins', () => {
  it('counts characters, not bytes, and the separator the file uses', () => {
    const csv = text('id,name,make\n1,豐田 Toyota,x\n2,"Quoted, comma",y\n');
    expect(fieldPosition(csv, 2, 1)).toEqual({ line: 2, column: 1 });
    expect(fieldPosition(csv, 2, 3)).toEqual({ line: 2, column: 13 });
    expect(fieldPosition(csv, 3, 3)).toEqual({ line: 3, column: 19 });
    expect(fieldPosition(text('id;name\n1;"a;b"\n'), 2, 2)).toEqual({ line: 2, column: 3 });
  });

  it('follows a quoted line break and doubled quotes to the line the field is on', () => {
    const csv = text('id,name,make\r\n1,"two\r\nlines ""x""",z\r\n');
    expect(fieldPosition(csv, 2, 3)).toEqual({ line: 3, column: 14 });
    expect(fieldPosition(text('id,name\r1,a\r2,b\r'), 3, 2)).toEqual({ line: 3, column: 3 });
  });

  it('has no position for a line or a field the file does not have', () => {
    const csv = text('id,name\n1,a\n');
    expect(fieldPosition(csv, 9, 1)).toBeUndefined();
    expect(fieldPosition(csv, 2, 3)).toBeUndefined();
    expect(fieldPosition(text('id,name\n1,\n'), 2, 2)).toEqual({ line: 2, column: 3 });
  });
});

describe('the job summary', () => {
  it('is appended to the file GITHUB_STEP_SUMMARY names, and not written without one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'summary-'));
    try {
      const file = join(dir, 'summary.md');
      expect(appendJobSummary('# one', { GITHUB_STEP_SUMMARY: file })).toBe(true);
      expect(appendJobSummary('two\n', { GITHUB_STEP_SUMMARY: file })).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe('# one\ntwo\n');
      expect(appendJobSummary('three', {})).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists every problem in a table whose cells the data cannot break', () => {
    const markdown = problemsSummary(
      [
        { file: 'cars.csv', line: 4, column: 2, field: 'name', rule: 'must not be empty' },
        { file: 'cars.csv', line: 7, column: 13, field: 'logo', rule: 'must be a path', value: 'a|b<script>' },
      ],
      '2 problems in cars.csv',
    );
    expect(markdown.split('\n')).toEqual([
      '### Data check: 2 problems in cars.csv',
      '',
      '| line | column | field | problem |',
      '| ---: | ---: | --- | --- |',
      '| 4 | 2 | name | must not be empty |',
      '| 7 | 13 | logo | must be a path; got "a\\|b&lt;script>" |',
      '',
    ]);
    expect(markdownCell('a\nb\\c')).toBe('a b\\\\c');
  });
});
