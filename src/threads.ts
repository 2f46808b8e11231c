/**
 * Work on a worker thread, one rule for every thread of the build: the thread may post notes along
 * the way and posts one answer when it is done. `answer` settles once the thread has ended (what it
 * held is free again); it fails with the thread's own error where it threw, and with an error naming
 * the thread where it ended without answering. What a failure means is the caller's to say.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * The young generation of every worker thread's V8 heap, in MiB: left to size it for throughput, V8
 * has each thread hold tens of MiB of short-lived garbage. `--max-semi-space-size` (`npm run build`)
 * wins over it; this limit holds where the build runs without that flag (`node scripts/build.ts`, the tests).
 */
const YOUNG_GENERATION_MIB = 32;

type Message<A, N> = { kind: 'note'; note: N } | { kind: 'answer'; answer: A };

/**
 * Runs the module `script` (whose top level calls `serveThread`) on a worker thread named `name` in messages, with `input`;
 * `stop` ends the thread now (`answer` then fails) and settles once it has ended.
 */
export function runOnThread<A, N = never>(
  name: string,
  script: URL,
  input: unknown,
  { onNote, transfer = [] }: { onNote?: (note: N) => void; transfer?: ArrayBuffer[] } = {},
) {
  let worker: Worker | undefined;
  const answer = new Promise<A>((done, fail) => {
    worker = new Worker(script, {
      workerData: input,
      transferList: transfer,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MIB },
    });
    let answered: { answer: A } | undefined;
    worker.on('message', (message: Message<A, N>) => {
      if (message.kind === 'note') onNote?.(message.note);
      else answered = { answer: message.answer };
    });
    worker.once('error', fail);
    // Settled once the thread has ended: what it held is free again.
    worker.once('exit', (code) => {
      if (answered) done(answered.answer);
      else fail(new Error(`the ${name} thread stopped (exit code ${code}) before it was done`));
    });
  });
  return {
    answer,
    stop: async () => {
      await worker?.terminate();
    },
  };
}

/** The thread's side: answers with what `work` makes of the thread's input, posting its notes meanwhile. */
export async function serveThread<I, A, N = never>(work: (input: I, note: (note: N) => void) => A | Promise<A>): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('serveThread runs only on a worker thread');
  const answer = await work(workerData as I, (note) => port.postMessage({ kind: 'note', note } satisfies Message<A, N>));
  port.postMessage({ kind: 'answer', answer } satisfies Message<A, N>);
}
