/**
 * "Not there" is one answer, "there but unreadable" another: a file or folder that is missing
 * (ENOENT) is `undefined`; any other error (permission denied, an input/output error) is thrown, to
 * stop the build with its message (src/integration/faults.ts) rather than be read as absent.
 */
export function ifPresent<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
