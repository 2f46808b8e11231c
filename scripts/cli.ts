/**
 * What the command-line scripts share: progress lines. (Their refusal of an invalid configuration
 * is `loadConfigOrExit` in src/config.ts, which astro.config.mjs shares.)
 */
import { counted } from '../src/listing/format.ts';

/** A progress reporter for long runs, on standard error so it never mixes with output. */
export function progressLine(label: string): (done: number) => void {
  return (done) => console.error(`  ${counted(done)} ${label}`);
}
