/**
 * A build stopped on purpose (bad data, too many rows gone, the lock lost) says why once, through
 * the integration's logger, and exits 1: what it says is a message for the maintainer, not a crash
 * (no stack trace, no location in our code). Anything else that fails is Astro's to report.
 */
import type { AstroIntegrationLogger } from 'astro';

export class Refusal extends Error {
  override name = 'Refusal';
}

/**
 * Whether `error` is a refusal, by its name: the build may be begun by a module instance of its
 * own (see session.ts), whose `Refusal` is another class than this one.
 */
export const isRefusal = (error: unknown): error is Refusal => error instanceof Error && error.name === 'Refusal';

/** The documented exit code of a refused build. */
export const REFUSED_EXIT_CODE = 1;

/** Says `refusal`, lets `cleanUp` undo what the build made, and ends the process. */
export function stopWith(refusal: Refusal, logger: AstroIntegrationLogger, cleanUp: () => void): never {
  logger.error(refusal.message);
  cleanUp();
  process.exit(REFUSED_EXIT_CODE);
}
