/**
 * Work on a worker thread, one rule for every thread of the build: the thread may post notes along
 * the way and posts one answer when it is done. `answer` settles once the thread has ended (what it
 * held is free again); it fails with the thread's own error where it threw, and with an error naming
 * the thread where it ended without answering. What a failure means is the caller's to say.
 */
import { parentPort, Worker, workerData, type ResourceLimits } from 'node:worker_threads';

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

type PoolAnswer<R> = { id: number; result: R } | { id: number; error: string };
/** What goes to a pool thread, and back, in one message: tasks and answers go a batch at a time (a message costs the same for one task as for many). */
type PoolBatch<T> = { tasks: { id: number; task: T }[] };
type PoolAnswers<R> = { answers: PoolAnswer<R>[] };

export interface ThreadPool<T, R> {
  /** Runs `task` on the thread with the fewest tasks under way. */
  run: (task: T, transfer?: ArrayBuffer[]) => Promise<R>;
  /** Ends every thread; settles once they have ended. */
  stop: () => Promise<void>;
}

/**
 * `size` threads of the module `script` (whose top level calls `servePool`), each given `input`.
 * The tasks `run` is given in one turn of the event loop go to the threads at the end of it, up to
 * `batch` in a message; a thread works through its messages in order, one task at a time, and
 * answers each message's tasks in one message. The same rule as `runOnThread`: a task fails with
 * the error it threw on its thread; a thread that fails or ends fails every task under way there,
 * and the pool takes no task after.
 */
export function threadPool<T, R>(
  name: string,
  script: URL,
  input: unknown,
  { size, batch, resourceLimits }: { size: number; batch: number; resourceLimits?: ResourceLimits },
): ThreadPool<T, R> {
  const pending = new Map<number, { done: (result: R) => void; fail: (error: Error) => void; thread: number }>();
  const busy = Array.from({ length: size }, () => 0);
  /** Each thread's tasks not yet sent, each with what its message transfers. */
  let unsent = busy.map(() => [] as { id: number; task: T; transfer: ArrayBuffer[] }[]);
  let sendScheduled = false;
  let failure: Error | undefined;
  let next = 0;
  const fail = (error: Error, thread?: number) => {
    failure ??= error;
    for (const [id, task] of pending) if (thread === undefined || task.thread === thread) settle(id, error);
  };
  const threads = busy.map((_, thread) => {
    const worker = new Worker(script, {
      workerData: input,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MIB, ...resourceLimits },
    });
    worker.on('message', (message: Partial<PoolAnswers<R>>) => {
      for (const answer of message.answers ?? [])
        settle(answer.id, 'error' in answer ? new Error(answer.error) : { result: answer.result });
    });
    worker.once('error', (error) => fail(error, thread));
    worker.once('exit', (code) => fail(new Error(`the ${name} thread stopped (exit code ${code})`), thread));
    return worker;
  });
  /** Settles task `id` (once: a task already settled, by its thread's failure, is left). */
  const settle = (id: number, outcome: Error | { result: R }) => {
    const task = pending.get(id);
    if (task === undefined) return;
    pending.delete(id);
    busy[task.thread]! -= 1;
    if (outcome instanceof Error) task.fail(outcome);
    else task.done(outcome.result);
  };
  const send = () => {
    const batches = unsent;
    unsent = busy.map(() => []);
    sendScheduled = false;
    batches.forEach((tasks, thread) => {
      for (let from = 0; from < tasks.length; from += batch) {
        postTogether(
          threads[thread]!,
          tasks.slice(from, from + batch),
          (sent) => ({ tasks: sent.map(({ id, task }) => ({ id, task })) }) satisfies PoolBatch<T>,
          (sent) => sent.flatMap(({ transfer }) => transfer),
          ({ id }, error) => settle(id, error instanceof Error ? error : new Error(String(error))),
        );
      }
    });
  };
  return {
    run: (task, transfer = []) =>
      new Promise<R>((done, reject) => {
        if (failure) return reject(failure);
        const thread = busy.indexOf(Math.min(...busy));
        const id = next++;
        busy[thread]! += 1;
        pending.set(id, { done, fail: reject, thread });
        unsent[thread]!.push({ id, task, transfer });
        if (!sendScheduled) {
          sendScheduled = true;
          setImmediate(send);
        }
      }),
    stop: async () => {
      failure ??= new Error(`the ${name} threads were stopped`);
      await Promise.all(threads.map((worker) => worker.terminate()));
    },
  };
}

/**
 * A pool thread's side: answers each task with what `work` makes of it (given the thread's input),
 * or with the error it threw; a message's tasks one after another, and their answers in one message.
 */
export async function servePool<I, T, R>(
  start: (input: I) => Promise<(task: T) => Promise<{ result: R; transfer?: ArrayBuffer[] }>>,
): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('servePool runs only on a worker thread');
  const work = await start(workerData as I);
  let before = Promise.resolve();
  port.on('message', ({ tasks }: PoolBatch<T>) => {
    before = before.then(async () => {
      const answers: PoolAnswer<R>[] = [];
      const transfers: ArrayBuffer[] = [];
      for (const { id, task } of tasks) {
        try {
          const { result, transfer = [] } = await work(task);
          answers.push({ id, result });
          transfers.push(...transfer);
        } catch (error) {
          answers.push({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        }
      }
      postTogether(
        port,
        answers,
        (sent) => ({ answers: sent }) satisfies PoolAnswers<R>,
        () => transfers,
        ({ id }, error) =>
          port.postMessage({
            answers: [{ id, error: `its answer could not be sent: ${error instanceof Error ? error.message : String(error)}` }],
          } satisfies PoolAnswers<R>),
      );
    });
  });
}

/**
 * Posts `items` in one message (`messageOf`, transferring `transferOf`'s buffers). Where that cannot be sent (one of
 * them cannot be cloned, and nothing was sent), each is posted alone, copied, and `unsendable` is given each that still
 * cannot be: one task or answer fails, not the others of its message.
 */
function postTogether<I>(
  port: { postMessage(message: unknown, transfer?: ArrayBuffer[]): void },
  items: I[],
  messageOf: (items: I[]) => unknown,
  transferOf: (items: I[]) => ArrayBuffer[],
  unsendable: (item: I, error: unknown) => void,
): void {
  try {
    port.postMessage(messageOf(items), transferOf(items));
  } catch {
    // Said per item below: the one that cannot be sent is found by sending each alone.
    for (const item of items) {
      try {
        port.postMessage(messageOf([item]));
      } catch (error) {
        unsendable(item, error);
      }
    }
  }
}
