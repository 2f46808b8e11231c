/**
 * Ctrl-C (SIGINT), SIGTERM (a CI runner's cancel, `kill`) and SIGHUP (a closed terminal) during a
 * build: the build says so, removes its own folder and releases the build lock on its way out
 * (the session's exit handler, session.ts, and lock.ts's), so nothing published changes and the next build
 * neither waits nor doubts what is cached. Publication itself is one synchronous step that a signal
 * cannot cut in two: a signal that arrives during it is handled after it, when the build is
 * published and there is nothing to undo.
 */
import { constants } from 'node:os';
import { unchangedSite } from './refusals.ts';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The exit code of a process ended by `signal`, as shells report it: 128 + its number (130 for Ctrl-C). */
const exitCodeOf = (signal: (typeof SIGNALS)[number]) => 128 + constants.signals[signal];

/** Whether `code` is the exit of an interrupted build. */
export const isInterrupted = (code: number): boolean => SIGNALS.some((signal) => exitCodeOf(signal) === code);

/** From now on, a signal ends the build as above; until the function returned is called. */
export function stopOnInterrupt(published: () => boolean, outDir: string, warn: (message: string) => void): () => void {
  const handlers = SIGNALS.map((signal) => {
    const handler = () => {
      if (!published()) warn(`Interrupted (${signal}): the build stopped. ${unchangedSite(outDir)}`);
      process.exit(exitCodeOf(signal));
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
