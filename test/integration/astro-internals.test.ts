import { describe, expect, it } from 'vitest';
import { dataReadyBeforePages } from '../../src/integration/astro-internals.ts';

describe("the integration's assumptions about Astro", () => {
  it('pages rendered before the data is ready fail with a message naming the assumption, not a missing file', () => {
    const missing = () => {
      throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    };
    expect(() => dataReadyBeforePages(missing)).toThrow(/an Astro upgrade broke an assumption.*buildApp hook of order "post".*src\/integration\/astro-internals\.ts/);
  });

  it('other errors pass through as they are', () => {
    const broken = () => {
      throw new Error('disk on fire');
    };
    expect(() => dataReadyBeforePages(broken)).toThrow('disk on fire');
  });
});
