/**
 * The folders of src/ are stages, and imports flow one way between them (src/<folder>/README.md
 * says each one's job): a module never imports from a later stage.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');
/**
 * Each stage, and the stages it may import from; any stage may import threads.ts (how work runs on
 * a worker thread) and files/ (the file system's answers, which imports no stage).
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  files: [],
  data: [],
  listing: ['data'],
  outputs: ['data', 'listing'],
  publish: ['data', 'listing', 'outputs'],
  serve: ['data', 'listing', 'outputs'],
  integration: ['data', 'listing', 'outputs', 'publish', 'serve', 'config.ts'],
  ci: ['data', 'listing', 'outputs', 'publish', 'config.ts'],
};
const ANY_STAGE_MAY_IMPORT = ['threads.ts', 'files'];

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(
    (match) => relative(SRC, resolve(dirname(file), match[1]!)).split('/')[0]!,
  );
}

describe('the folders of src/', () => {
  for (const [stage, allowed] of Object.entries(MAY_IMPORT)) {
    it(`${stage}/ imports only from ${allowed.length ? allowed.join(', ') : 'itself'}`, () => {
      const files = readdirSync(join(SRC, stage), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .map((entry) => join(entry.parentPath, entry.name));
      expect(files.length).toBeGreaterThan(2);
      const wrong = files.flatMap((file) =>
        importsOf(file)
          .filter((target) => target !== stage && !allowed.includes(target) && !ANY_STAGE_MAY_IMPORT.includes(target))
          .map((target) => `${relative(SRC, file)} → ${target}`),
      );
      expect(wrong).toEqual([]);
    });

    it(`${stage}/ says its job in its README`, () => {
      expect(
        readFileSync(join(SRC, stage, 'README.md'), 'utf8')
          .trim()
          .split('\n'),
      ).toHaveLength(1);
    });
  }
});
