/** The published JSON documents, written a piece at a time, are the bytes JSON.stringify(value, null, 2) gives, and their hash is those bytes'. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
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

it('treats what JSON.stringify treats specially as it does: no JSON form, holes, boxed values, toJSON by key', () => {
  const holes = [1, , 3];
  const byKey = { toJSON: (key: string) => `at ${key}` };
  const gone = { toJSON: () => undefined };
  sameAsStringify(
    {
      kept: 1,
      gone: undefined,
      call: () => 1,
      list: [undefined, () => 1, 2, gone],
      holes,
      boxed: [new Number(5), new String('ab'), new Boolean(false)],
      keyed: [byKey, { inside: byKey }],
      dropped: gone,
      at: new Date(0),
      nested: { empty: {}, none: [] },
    },
    '\n',
  );
});

it('leaves no file where the value cannot be written', () => {
  expect(() => writeJsonFile(file, { big: 1n })).toThrow(TypeError);
  expect(existsSync(file)).toBe(false);
});

it('writes a document far larger than one piece, with text of every script', () => {
  const rows = Array.from({ length: 50_000 }, (_, id) => ({
    id,
    name: `豐田 Toyota ${id} "quoted"\\`,
    url: `https://example.org/page/${id}/`,
  }));
  sameAsStringify({ rows, urls: rows.map(({ url }) => url) }, '\n');
});
