/**
 * Work on a worker thread, with one rule for every thread of the build (the data side, the JSON
 * pages, the downloads, the parts of a large file's validation): the thread may post notes along
 * the way and posts one answer when it is done. `answer` settles with that answer once the thread
 * has ended (what it held is free again); it fails with
 * the thread's own error where it threw, and with an error naming the thread where it ended
 * without answering (it was stopped, or it could not start). What a failure means is the caller's
 * to say.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';

type Message<A, N> = { kind: 'note'; note: N } | { kind: 'answer'; answer: A };

export interface ThreadRun<A> {
  answer: Promise<A>;
  /** Ends the thread now (`answer` then fails); settles once it has ended. */
  stop: () => Promise<void>;
}

/** Runs the module `script` (whose top level calls `serveThread`) on a worker thread named `name` in messages, with `input`. */
export function runOnThread<A, N = never>(
  name: string,
  script: URL,
  input: unknown,
  { onNote, transfer = [] }: { onNote?: (note: N) => void; transfer?: ArrayBuffer[] } = {},
): ThreadRun<A> {
  let worker: Worker | undefined;
  const answer = new Promise<A>((done, fail) => {
    worker = new Worker(script, { workerData: input, transferList: transfer });
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
