/** The guard against publishing a truncated export: too many published rows gone stops a build. */
import { counted } from '../listing/format.ts';
import type { RowComparison } from '../outputs/row-changes.ts';

/** More than this share of the published rows gone stops a build unless ALLOW_SHRINK=1. */
const SHRINK_LIMIT = 0.2;

/** The message that stops a build removing too many published rows, or undefined when it may go on. */
export function shrinkRefusal({ rows, published }: RowComparison, outDir: string): string | undefined {
  if (published === 0) return undefined;
  const removed = rows.removed.length;
  if (removed / published <= SHRINK_LIMIT) return undefined;
  const share = ((removed / published) * 100).toFixed(0);
  return (
    `This build would remove ${counted(removed)} of the ${counted(published)} published rows (${share} %), ` +
    `more than ${SHRINK_LIMIT * 100} %: is the export cut short? Nothing was built; ${outDir}/ is unchanged. ` +
    'If those rows are really gone, build again with ALLOW_SHRINK=1.'
  );
}

/** What follows a reason the published rows cannot be known: the guard cannot be applied, so the build stops. */
export function unknownPublishedRows(outDir: string): string {
  return (
    `This build cannot tell what is published, so it cannot check that the new data keeps the published rows. Nothing was built; ${outDir}/ is unchanged. ` +
    'If the data file is right, build again with ALLOW_SHRINK=1: the site is then built from it alone, as a first build.'
  );
}
