/**
 * GitHub Actions' workflow commands, as GitHub documents them ("Workflow commands for GitHub
 * Actions"): `::error file={name},line={line},col={col},title={title}::{message}` on standard
 * output, `%`, CR and LF escaped in the message (`%25`, `%0D`, `%0A`) and `:` and `,` too in a
 * property (`%3A`, `%2C`). A pull request shows an error annotation on the file's line.
 */
import { isAbsolute, relative, resolve } from 'node:path';

export type Environment = Record<string, string | undefined>;

/** Whether this runs as a step of a GitHub Actions job (the runner sets GITHUB_ACTIONS=true). */
export const inGitHubActions = (environment: Environment = process.env): boolean => environment['GITHUB_ACTIONS'] === 'true';

/** A workflow command's message: `%`, CR and LF escaped. */
export const escapeData = (text: string): string => text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/** A workflow command's property value: as a message, and `:` and `,` too. */
export const escapeProperty = (text: string): string => escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

/** An annotation's place and title (GitHub's property names). */
export interface AnnotationProperties {
  file?: string | undefined;
  line?: number | undefined;
  col?: number | undefined;
  title?: string | undefined;
}

/** `::error file=…,line=…,col=…,title=…::message`, the properties given in that order. */
export function workflowCommand(command: 'error' | 'warning' | 'notice', properties: AnnotationProperties, message: string): string {
  const given = (['file', 'line', 'col', 'title'] as const).flatMap((name) => {
    const value = properties[name];
    return value === undefined ? [] : [`${name}=${escapeProperty(String(value))}`];
  });
  return `::${command}${given.length > 0 ? ` ${given.join(',')}` : ''}::${escapeData(message)}`;
}

/**
 * The path GitHub knows a file by: relative to the checkout (GITHUB_WORKSPACE, else the working
 * folder), with `/`; undefined for a file outside it, which no annotation can point at.
 */
export function repositoryPath(file: string, environment: Environment = process.env): string | undefined {
  const workspace = resolve(environment['GITHUB_WORKSPACE'] ?? process.cwd());
  const path = relative(workspace, resolve(file));
  if (path === '' || isAbsolute(path) || path === '..' || path.startsWith('../') || path.startsWith('..\\')) return undefined;
  return path.replaceAll('\\', '/');
}
