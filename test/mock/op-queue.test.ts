/** The C-Chain's queue of ops (mock/cchain/op-queue.ts), which a call on the second engine steps out of meanwhile. */
import { describe, expect, it } from 'vitest';
import { OpQueue } from '../../mock/cchain/op-queue.ts';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe('OpQueue', () => {
  it('runs ops one at a time, in order', async () => {
    const queue = new OpQueue();
    const log: string[] = [];
    const gate = deferred();
    const first = queue.run(async () => {
      log.push('first starts');
      await gate.promise;
      log.push('first ends');
    });
    const second = queue.run(async () => log.push('second'));
    await Promise.resolve();
    gate.resolve();
    await Promise.all([first, second]);
    expect(log).toEqual(['first starts', 'first ends', 'second']);
  });

  it('lets later ops run while an op is aside, which then waits for their end', async () => {
    const queue = new OpQueue();
    const log: string[] = [];
    const away = deferred();
    const laterHolds = deferred();
    let arrived = 0;
    const first = queue.run(async () => {
      arrived = queue.queuedAt;
      await queue.aside(async () => {
        log.push('first aside');
        await away.promise;
      });
      log.push('first back');
      expect(queue.queuedAt).toBe(arrived);
    });
    const later = queue.run(async () => {
      log.push('later starts');
      away.resolve();
      await laterHolds.promise;
      log.push('later ends');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['first aside', 'later starts']);
    laterHolds.resolve();
    await Promise.all([first, later]);
    expect(log).toEqual(['first aside', 'later starts', 'later ends', 'first back']);
  });

  it('goes on after an op that failed', async () => {
    const queue = new OpQueue();
    await expect(queue.run(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(queue.run(async () => 'next')).resolves.toBe('next');
  });
});
