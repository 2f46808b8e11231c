/** The guard against publishing a truncated export: too many published rows gone stops a build (its message: src/integration/refusals.ts). */
import type { RowComparison } from '../outputs/row-changes.ts';

/** More than this share of the published rows gone, as a percentage, stops a build unless ALLOW_SHRINK=1. */
export const SHRINK_LIMIT_PERCENT = 20;

/** Whether `comparison` removes more than SHRINK_LIMIT_PERCENT of the published rows: what stops a build. */
export const removesTooMany = ({ rows, published }: RowComparison): boolean => rows.removed.length * 100 > published * SHRINK_LIMIT_PERCENT;
