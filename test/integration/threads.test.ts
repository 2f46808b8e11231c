import { describe, expect, it } from 'vitest';
import { threadPool } from '../../src/threads.ts';

const WORKER = new URL('../fixtures/threads/pool-worker.ts', import.meta.url);
type Answer = { value: number; thread: number; messages: number };

const poolOf = (size: number, batch: number) => threadPool<number | ArrayBuffer, Answer>('test', WORKER, { factor: 2 }, { size, batch });

describe('threadPool', () => {
  it('sends the tasks of one turn in batches, shared between the threads, and answers each', async () => {
    const pool = poolOf(2, 16);
    try {
      const tasks = Array.from({ length: 40 }, (_, index) => index);
      const answers = await Promise.all(tasks.map((task) => pool.run(task)));
      expect(answers.map((answer) => answer.value)).toEqual(tasks.map((task) => task * 2));
      const threads = new Map<number, Answer[]>();
      for (const answer of answers) threads.set(answer.thread, [...(threads.get(answer.thread) ?? []), answer]);
      expect([...threads.values()].map((each) => each.length)).toEqual([20, 20]);
      // 20 tasks in batches of 16: two messages to each thread, not twenty.
      for (const each of threads.values()) expect(Math.max(...each.map((answer) => answer.messages))).toBe(2);
    } finally {
      await pool.stop();
    }
  });

  it("transfers each task's buffers with the message that carries it, whichever batch that is", async () => {
    const pool = poolOf(1, 2);
    try {
      const buffers = Array.from({ length: 5 }, (_, index) => new ArrayBuffer(index + 1));
      const answers = await Promise.all(buffers.map((buffer) => pool.run(buffer, [buffer])));
      expect(answers.map((answer) => answer.value)).toEqual([1, 2, 3, 4, 5]);
      // Transferred, not copied: gone from this thread.
      expect(buffers.every((buffer) => buffer.byteLength === 0)).toBe(true);
    } finally {
      await pool.stop();
    }
  });

  it('fails only the task that threw, not the others of its batch', async () => {
    const pool = poolOf(1, 16);
    try {
      const settled = await Promise.allSettled([1, -1, 3].map((task) => pool.run(task)));
      expect(settled).toMatchObject([
        { status: 'fulfilled' },
        { status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/task -1 fails/) }) },
        { status: 'fulfilled' },
      ]);
      expect(await pool.run(4)).toMatchObject({ value: 8 });
    } finally {
      await pool.stop();
    }
  });

  it('fails a task that cannot be sent, or whose answer cannot, and only that task', async () => {
    const pool = poolOf(1, 1);
    const unsendable = (() => 1) as unknown as number;
    try {
      const settled = await Promise.allSettled([1, unsendable, 3].map((task) => pool.run(task)));
      expect(settled).toMatchObject([
        { status: 'fulfilled', value: { value: 2 } },
        { status: 'rejected', reason: expect.objectContaining({ name: 'DataCloneError' }) },
        { status: 'fulfilled', value: { value: 6 } },
      ]);
      const answered = await Promise.allSettled([5, -3, 7].map((task) => pool.run(task)));
      expect(answered).toMatchObject([
        { status: 'fulfilled', value: { value: 10 } },
        { status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/its answer could not be sent/) }) },
        { status: 'fulfilled', value: { value: 14 } },
      ]);
      // Three tasks in one message (batch 16): the answers of the other two still come.
      const big = poolOf(1, 16);
      try {
        const together = await Promise.allSettled([5, -3, 7].map((task) => big.run(task)));
        expect(together.map((each) => each.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      } finally {
        await big.stop();
      }
    } finally {
      await pool.stop();
    }
  });

  it('fails every task under way on a thread that ends, and takes none after', async () => {
    const pool = poolOf(1, 4);
    try {
      const settled = await Promise.allSettled([1, -2, 3, 5, 7, 9].map((task) => pool.run(task)));
      // The first batch's first task was answered with the batch, which never was: all fail.
      expect(settled.every((each) => each.status === 'rejected')).toBe(true);
      expect(settled[0]).toMatchObject({
        reason: expect.objectContaining({ message: expect.stringMatching(/the test thread stopped \(exit code 3\)/) }),
      });
      await expect(pool.run(1)).rejects.toThrow(/exit code 3/);
    } finally {
      await pool.stop();
    }
  });
});
