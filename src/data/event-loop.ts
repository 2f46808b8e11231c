/**
 * Long loops over a listing (a million pages, links, files) let the event loop turn now and then,
 * so that timers run meanwhile: the build lock's refresh (src/publish/lock.ts), the progress lines.
 */

/** Items between two turns of the event loop. */
const ITEMS_PER_TURN = 5000;

/** Lets the event loop turn once `done` (items done so far, counted from 1) reaches each multiple of 5,000. */
export async function turnEvery(done: number): Promise<void> {
  if (done % ITEMS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
}
