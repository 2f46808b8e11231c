/** The guard against publishing a truncated export: too many published rows gone stops a build. */
import { counted } from '../listing/format.ts';
import type { RowComparison } from '../outputs/row-changes.ts';

/** More than this share of the published rows gone stops a build unless ALLOW_SHRINK=1. */
const SHRINK_LIMIT = 0.2;

/** More than this share of the published rows gone stops a build unless ALLOW_SHRINK=1, as a percentage. */
export const SHRINK_LIMIT_PERCENT = SHRINK_LIMIT * 100;

/** Whether `comparison` removes more than SHRINK_LIMIT of the published rows: what stops a build. */
export const removesTooMany = ({ rows, published }: RowComparison): boolean =>
  published > 0 && rows.removed.length / published > SHRINK_LIMIT;

/** The message that stops a build removing too many published rows, or undefined when it may go on. */
export function shrinkRefusal(comparison: RowComparison, outDir: string): string | undefined {
  if (!removesTooMany(comparison)) return undefined;
  const { rows, published } = comparison;
  const removed = rows.removed.length;
  const share = ((removed / published) * 100).toFixed(0);
  return (
    `This build would remove ${counted(removed)} of the ${counted(published)} published rows (${share} %), ` +
    `more than ${SHRINK_LIMIT_PERCENT} %: is the export cut short? Nothing was built; ${outDir}/ is unchanged. ` +
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
