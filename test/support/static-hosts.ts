/**
 * Readers of the generated Netlify and Vercel configurations that apply their rules as each host
 * documents them (../shared/notes/static-hosts.md), so a test can ask which file and headers a
 * request gets. They are deliberately small: only the rule forms our generators write.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { VercelConfig } from '../../src/lib/host-configs/vercel.ts';

export interface HostAnswer {
  status: number;
  /** The file served, relative to the site, or undefined for the host's own 404 page. */
  file?: string;
  headers: Record<string, string>;
}

const fileExists = (siteDir: string, path: string) => {
  const full = join(siteDir, decodeURIComponent(path));
  return existsSync(full) && statSync(full).isFile();
};

/** Netlify: rules in order; placeholders and `*`; query conditions must be present; extra ones ignored. */
export function netlifyAnswer(siteDir: string, target: string): HostAnswer {
  const url = new URL(target, 'http://netlify.test');
  const headers = netlifyHeaders(siteDir, url.pathname);
  if (fileExists(siteDir, url.pathname)) return { status: 200, file: url.pathname.slice(1), headers };
  const rules = readFileSync(join(siteDir, '_redirects'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.trim().split(/\s+/));
  for (const columns of rules) {
    const [from, ...rest] = columns as [string, ...string[]];
    const status = Number(rest.at(-1));
    const to = rest.at(-2) ?? '';
    const conditions = rest.slice(0, -2);
    const captures: Record<string, string> = {};
    const pattern = new RegExp(
      `^${from.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '(?<$1>[^/]+)').replace(/\*/g, '(?<splat>.*)')}$`,
    );
    const match = pattern.exec(url.pathname);
    if (!match) continue;
    Object.assign(captures, match.groups);
    const queryMatches = conditions.every((condition) => {
      const [key, value] = condition.split('=') as [string, string];
      const actual = url.searchParams.get(key);
      if (actual === null) return false;
      if (value.startsWith(':')) {
        captures[value.slice(1)] = actual;
        return true;
      }
      return actual === value;
    });
    if (!queryMatches) continue;
    const destination = to.replace(/:(\w+)/g, (_, name: string) => captures[name] ?? '');
    if (!fileExists(siteDir, destination)) return { status: 404, headers };
    return { status, file: destination.slice(1), headers };
  }
  return { status: 404, headers };
}

/** Netlify `_headers`: every block whose path (with `*`) matches the request path applies. */
function netlifyHeaders(siteDir: string, pathname: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let applies = false;
  for (const line of readFileSync(join(siteDir, '_headers'), 'utf8').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    if (!line.startsWith(' ')) {
      const pattern = new RegExp(`^${line.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      applies = pattern.test(pathname);
      continue;
    }
    if (!applies) continue;
    const [name, ...value] = line.trim().split(': ');
    // Netlify drops Allow (../shared/notes/static-hosts.md).
    if (name && name !== 'Allow') headers[name] = value.join(': ');
  }
  return headers;
}

/** A Vercel `source`: path-to-regexp forms `:name(regex)`, `:name*` and `(.*)`. */
function vercelSource(source: string): RegExp {
  let pattern = '';
  for (let index = 0; index < source.length; ) {
    const rest = source.slice(index);
    const named = /^:(\w+)(\((?:[^()]|\([^()]*\))*\))?(\*)?/.exec(rest);
    if (named) {
      const [whole, name, group, star] = named;
      pattern += group ? `(?<${name}>${group.slice(1, -1)})` : star ? `(?<${name}>.*)` : `(?<${name}>[^/]+)`;
      index += whole.length;
    } else if (rest.startsWith('(.*)')) {
      pattern += '(.*)';
      index += 4;
    } else {
      pattern += rest[0]!.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
      index += 1;
    }
  }
  return new RegExp(`^${pattern}$`);
}

type Condition = { type: 'query'; key: string; value?: string };

function conditionsHold(url: URL, has: Condition[] = [], missing: Condition[] = [], captures: Record<string, string>): boolean {
  for (const condition of missing) if (url.searchParams.has(condition.key)) return false;
  for (const condition of has) {
    const actual = url.searchParams.get(condition.key);
    if (actual === null) return false;
    if (condition.value === undefined) continue;
    const match = new RegExp(`^(?:${condition.value})$`).exec(actual);
    if (!match) return false;
    Object.assign(captures, match.groups);
  }
  return true;
}

/** Vercel: existing files win; then rewrites in order; headers of every matching rule, in order. */
export function vercelAnswer(siteDir: string, target: string): HostAnswer {
  const config = JSON.parse(readFileSync(join(siteDir, 'vercel.json'), 'utf8')) as VercelConfig;
  const url = new URL(target, 'http://vercel.test');
  const headers: Record<string, string> = {};
  for (const rule of config.headers) {
    if (vercelSource(rule.source).test(url.pathname) && conditionsHold(url, rule.has, [], {})) {
      for (const { key, value } of rule.headers) headers[key] = value;
    }
  }
  if (fileExists(siteDir, url.pathname)) return { status: 200, file: url.pathname.slice(1), headers };
  for (const rewrite of config.rewrites) {
    const match = vercelSource(rewrite.source).exec(url.pathname);
    if (!match) continue;
    const captures: Record<string, string> = { ...match.groups };
    if (!conditionsHold(url, rewrite.has, rewrite.missing, captures)) continue;
    const destination = rewrite.destination.replace(/:(\w+)/g, (_, name: string) => captures[name] ?? '');
    if (!fileExists(siteDir, destination)) return { status: 404, headers };
    return { status: rewrite.statusCode ?? 200, file: destination.slice(1), headers };
  }
  return { status: 404, headers };
}
