/** The guard against publishing a truncated export: too many published rows gone stops a build (its message: src/integration/refusals.ts). */
import type { RowComparison } from '../outputs/row-changes.ts';

/** More than this share of the published rows gone stops a build unless ALLOW_SHRINK=1. */
const SHRINK_LIMIT = 0.2;

/** More than this share of the published rows gone stops a build unless ALLOW_SHRINK=1, as a percentage. */
export const SHRINK_LIMIT_PERCENT = SHRINK_LIMIT * 100;

/** Whether `comparison` removes more than SHRINK_LIMIT of the published rows: what stops a build. */
export const removesTooMany = ({ rows, published }: RowComparison): boolean =>
  published > 0 && rows.removed.length / published > SHRINK_LIMIT;
