/**
 * A short seeded run of the randomised rebuild test (test/support/rebuilds.ts): every rebuild,
 * whatever was edited, interrupted or deleted, publishes what a clean build publishes, and nothing
 * published ever changes. `npm run fuzz -- --rounds 200 --seed N` runs long ones.
 */
import { describe, expect, it } from 'vitest';
import { runRebuilds } from '../support/rebuilds.ts';

const SEED = 20261123;
const ROUNDS = 14;

describe('randomised rebuilds', () => {
  it(`seed ${SEED}, ${ROUNDS} rounds: every round's dist/ and deploy/ are a clean build's, nothing published changed`, { timeout: 600_000 }, async () => {
    const lines: string[] = [];
    const summary = await runRebuilds({ seed: SEED, rounds: ROUNDS, rows: 1500, log: (line) => lines.push(line) });
    // The run met every kind of round: the checks above ran on each.
    expect(summary, lines.join('\n')).toMatchObject({
      published: expect.any(Number),
      refused: expect.any(Number),
      killed: expect.any(Number),
      concurrent: expect.any(Number),
    });
    for (const kind of ['published', 'refused', 'killed', 'concurrent'] as const) expect(summary[kind], `${kind}\n${lines.join('\n')}`).toBeGreaterThan(0);
  });
});
