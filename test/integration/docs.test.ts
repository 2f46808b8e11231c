/**
 * The docs stay true to the repository: each folder README of src/ names every module in it,
 * README's configuration table lists every variable the configuration reads (and nothing else),
 * every repository path and every relative link a doc names exists, and README links every doc.
 *
 * Which names are repository paths (rule 3), in README.md, CONTRIBUTING.md, BENCHMARKS.md,
 * docs/*.md and src/<folder>/README.md, in prose, code spans and code blocks alike:
 * - a Markdown link's target that is neither a URL (`scheme:`) nor absolute (`/…`, an address of
 *   the built site) is a path from the doc's own folder; its `#fragment`, where it has one, must be
 *   a heading of the doc it names (as GitHub makes its anchors);
 * - any other word that begins with a folder of the repository (`src/`, `test/`, `bench/`,
 *   `.github/`, …: the folders at its top) is a path from the repository's top. The build's outputs
 *   (`dist/`, `deploy/`, `node_modules/`, `bench/out/`, …) are not the repository's, and an address
 *   of the built site (`/page/N/`, `/car/api/…`) begins with `/`: neither is checked.
 * - A path with a placeholder (`<id>`, `*`, `{a,b}`, `…`) is checked up to the folder before it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/config.ts';

const ROOT = resolve('.');
const SRC = join(ROOT, 'src');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** What builds, installs, tests and benchmarks write: folders of the working copy, not of the repository. */
const OUTPUTS = new Set(['dist', 'deploy', 'node_modules', '.astro', 'test-results', 'bench/out', '.netlify', '.vercel']);
const isOutput = (path: string) =>
  [...OUTPUTS].some((output) => path === output || path.startsWith(`${output}/`)) || /^\.[^/]*\.builds(\/|$)/.test(path);

/** The repository's top-level folders (src, test, bench, docs, .github, …), which a repository path begins with. */
const TOP_FOLDERS = new Set(
  readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !isOutput(entry.name) && entry.name !== '.git')
    .map((entry) => entry.name),
);

const FOLDER_READMES = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(SRC, entry.name, 'README.md')))
  .map((entry) => `src/${entry.name}/README.md`);
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const MARKDOWN = ['README.md', 'CONTRIBUTING.md', 'BENCHMARKS.md', ...DOCS, ...FOLDER_READMES];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The path `path` names before its first placeholder (`<id>`, `*`, `{…}`, `…`): the part that must exist. */
function literalPart(path: string): string {
  const segments = path.split('/');
  const placeholder = segments.findIndex((segment) => /[<>*{}…]|\.\.\./.test(segment));
  return placeholder === -1 ? path : segments.slice(0, placeholder).join('/');
}

/** Every repository path and relative link `file` names that is not there, as `file: path`. */
function missingPaths(file: string): string[] {
  const text = read(file);
  const missing: string[] = [];
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
  for (const link of links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('/')) continue;
    const [path, fragment] = link.split('#') as [string, string | undefined];
    const target = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
    if (!existsSync(target)) {
      missing.push(`${file}: ${link}`);
    } else if (fragment !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(fragment)) {
      missing.push(`${file}: ${link} (no such heading in ${relative(ROOT, target)})`);
    }
  }
  // Words: runs of characters a path is written with, trailing punctuation and a `:line` taken off.
  const linkTargets = text.replace(/\]\([^)\s]+\)/g, ']');
  for (const [word] of linkTargets.matchAll(/[\w.@<>*{}…[\]/-]+/g)) {
    const path = word.replace(/(:\d+)+:?$/, '').replace(/[.,:;]+$/, '');
    const top = path.split('/')[0]!;
    if (!path.includes('/') || !TOP_FOLDERS.has(top) || isOutput(path)) continue;
    if (!existsSync(join(ROOT, literalPart(path)))) missing.push(`${file}: ${path}`);
  }
  return missing;
}

describe('the docs', () => {
  it('find the files they are about', () => {
    expect(FOLDER_READMES.length).toBeGreaterThanOrEqual(8);
    expect(DOCS.length).toBeGreaterThanOrEqual(8);
    expect(TOP_FOLDERS).toContain('src');
    expect(TOP_FOLDERS).not.toContain('node_modules');
  });

  for (const readme of FOLDER_READMES) {
    it(`${readme} names every module of its folder`, () => {
      const folder = join(ROOT, dirname(readme));
      const modules = readdirSync(folder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(ts|astro)$/.test(entry.name))
        .map((entry) => relative(folder, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
      expect(modules.length).toBeGreaterThan(2);
      const text = read(readme);
      // By its file name, as a word of its own (`load.ts` is not named by `load-threads.ts`).
      const unnamed = modules.filter((module) => !new RegExp(`(?<![\\w.-])${escapeRegExp(basename(module))}(?![\\w-])`).test(text));
      expect(unnamed).toEqual([]);
    });
  }

  it("README's configuration table lists every variable the configuration reads, and nothing else", () => {
    const section =
      read('README.md')
        .split(/^## Configuration$/m)[1]
        ?.split(/^## /m)[0] ?? '';
    const listed = [...section.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((match) => match[1]!);
    expect(listed.toSorted()).toEqual([...CONFIG_VARIABLES].toSorted());
  });

  it('name only paths and headings that exist', () => {
    expect(MARKDOWN.flatMap(missingPaths)).toEqual([]);
  });

  it('are each linked from README', () => {
    const readme = read('README.md');
    const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+\.md)(?:#[^)\s]*)?\)/g)].map((match) => match[1]!));
    expect(DOCS.filter((doc) => !linked.has(doc))).toEqual([]);
  });
});
