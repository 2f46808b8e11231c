/**
 * Named instants of a build's publication where the randomised rebuild test
 * (test/rebuilds/) kills it with SIGKILL, so that each step is proven to leave what is published
 * whole, not only the instants a random timer happens to hit. Inert unless LISTING_KILL_AT names
 * one of them.
 */
export const KILL_POINTS = ['pages rendered', 'site complete', 'record written', 'current renamed', 'links made'] as const;
export type KillPoint = (typeof KILL_POINTS)[number];

export function killPoint(name: KillPoint): void {
  if (process.env['LISTING_KILL_AT'] === name) process.kill(process.pid, 'SIGKILL');
}
