/** The published JSON documents, written a piece at a time, are the bytes JSON.stringify(value, null, 2) gives, and their hash is those bytes'. */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { writeJsonFile } from '../../src/outputs/json-file.ts';
import { tempDir } from '../support/site.ts';

const workspace = tempDir('json-file');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
const file = join(workspace, 'document.json');

const sameAsStringify = (value: unknown, end: string) => {
  const sha256 = writeJsonFile(file, value, end);
  const bytes = readFileSync(file);
  expect(bytes.toString('utf8')).toBe(`${JSON.stringify(value, null, 2)}${end}`);
  expect(sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
};

it('writes any JSON value as JSON.stringify does, indented by two spaces, with what follows it', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.constantFrom('', '\n'), (value, end) => sameAsStringify(value, end)),
    { numRuns: 300 },
  );
});

it('leaves out of objects, and writes as null in arrays, what has no JSON form; uses toJSON', () => {
  sameAsStringify(
    { kept: 1, gone: undefined, call: () => 1, list: [undefined, () => 1, 2], at: new Date(0), nested: { empty: {}, none: [] } },
    '\n',
  );
});

it('writes a document far larger than one piece, with text of every script', () => {
  const rows = Array.from({ length: 50_000 }, (_, id) => ({
    id,
    name: `豐田 Toyota ${id} "quoted"\\`,
    url: `https://example.org/page/${id}/`,
  }));
  sameAsStringify({ rows, urls: rows.map(({ url }) => url) }, '\n');
});
