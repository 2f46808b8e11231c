/**
 * A build stopped on purpose (bad data, too many rows gone, the lock lost) says why once, through
 * the integration's logger, and exits 1: what it says is a message for the maintainer, not a crash
 * (no stack trace, no location in our code). Anything else that fails is Astro's to report. Every
 * build that stops before it publishes says so in the same words (`unchangedSite`).
 */
import type { AstroIntegrationLogger } from 'astro';
import { counted } from '../listing/format.ts';
import type { RowComparison } from '../outputs/row-changes.ts';
import { removesTooMany, SHRINK_LIMIT_PERCENT } from '../publish/shrink-guard.ts';

/** What a build that stopped before publishing says of the published site at `outDir`. */
export const unchangedSite = (outDir: string): string => `Nothing was published: ${outDir}/ is unchanged.`;

/** The message that stops a build removing too many published rows, or undefined when it may go on. */
export function shrinkRefusal(comparison: RowComparison, outDir: string): string | undefined {
  if (!removesTooMany(comparison)) return undefined;
  const { rows, published } = comparison;
  const removed = rows.removed.length;
  const share = ((removed / published) * 100).toFixed(0);
  return (
    `This build would remove ${counted(removed)} of the ${counted(published)} published rows (${share} %), ` +
    `more than ${SHRINK_LIMIT_PERCENT} %: is the export cut short? ${unchangedSite(outDir)} ` +
    'If those rows are really gone, build again with ALLOW_SHRINK=1.'
  );
}

/** What follows a reason the published rows cannot be known: the guard cannot be applied, so the build stops. */
export function unknownPublishedRows(outDir: string): string {
  return (
    `This build cannot tell what is published, so it cannot check that the new data keeps the published rows. ${unchangedSite(outDir)} ` +
    'If the data file is right, build again with ALLOW_SHRINK=1: the site is then built from it alone, as a first build.'
  );
}

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
