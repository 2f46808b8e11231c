/** What the command-line scripts share: configuration errors and progress lines. */
import { ConfigError } from '../src/config.ts';

/** Runs `read`, and on an invalid configuration prints what is wrong and exits 2. */
export function exitOnConfigError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

/** A progress reporter for long runs, on standard error so it never mixes with output. */
export function progressLine(label: string): (done: number) => void {
  return (done) => console.error(`  ${done.toLocaleString('en')} ${label}`);
}
