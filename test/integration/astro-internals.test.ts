import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataReadyBeforePages } from '../../src/integration/astro-internals.ts';

const missingIn = (folder: string) => () => {
  throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', path: join(folder, 'render.v8') });
};

describe("the integration's assumptions about Astro", () => {
  it('pages rendered before the data is ready fail with a message naming the assumption, not a missing file', () => {
    expect(() => dataReadyBeforePages(missingIn(tmpdir()))).toThrow(
      /an Astro upgrade broke an assumption.*buildApp hook of order "post".*src\/integration\/astro-internals\.ts/,
    );
  });

  it("a build folder that vanished is the machine's fault, not a broken assumption: its error passes through", () => {
    expect(() => dataReadyBeforePages(missingIn(join(tmpdir(), 'no-such-build-folder')))).toThrow('ENOENT: no such file');
  });

  it('other errors pass through as they are', () => {
    const broken = () => {
      throw new Error('disk on fire');
    };
    expect(() => dataReadyBeforePages(broken)).toThrow('disk on fire');
  });
});
