/**
 * The CLI's line per call goes out in batches (issue 25: a synchronous write per call cost a fifth of the mock's
 * throughput; `npm run bench -- server` measures the logged mock against the quiet one).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lineWriter, timestamp } from '../../mock/log-lines.ts';

afterEach(() => void vi.useRealTimers());

describe('lineWriter', () => {
  it('writes many calls’ lines in one write, in order, when its timer fires or on flush', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const lines = lineWriter((bytes) => writes.push(Buffer.from(bytes).toString()));
    for (let i = 0; i < 1000; i++) lines.log(`call ${i} ok`);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n').slice(0, 3)).toEqual(['call 0 ok', 'call 1 ok', 'call 2 ok']);
    expect(writes[0]!.endsWith('call 999 ok\n')).toBe(true);
    lines.log('last');
    lines.flush();
    lines.flush();
    expect(writes).toEqual([writes[0], 'last\n']);
  });

  it('writes each line as UTF-8 bytes, a line longer than a batch alone', () => {
    const writes: string[] = [];
    const lines = lineWriter((bytes) => writes.push(Buffer.from(bytes).toString()));
    lines.log('café ✓ 𝄞');
    const long = 'é'.repeat(40_000);
    lines.log(long);
    lines.log('after');
    lines.flush();
    expect(writes).toEqual(['café ✓ 𝄞\n', `${long}\n`, 'after\n']);
  });

  it('writes at 64 KiB waiting rather than holding more', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const lines = lineWriter((bytes) => writes.push(Buffer.from(bytes).toString()));
    const line = 'x'.repeat(99);
    for (let i = 0; i < 2000; i++) lines.log(line);
    lines.flush();
    expect(writes.join('')).toBe(`${line}\n`.repeat(2000));
    expect(writes.length).toBe(4);
    expect(Math.max(...writes.map((w) => w.length))).toBeLessThan(64 * 1024 + 100);
  });
});

describe('timestamp', () => {
  it('is the current time as toISOString writes it, as the clock moves by a millisecond or more', () => {
    vi.useFakeTimers();
    const times = [0, 1, 9, 10, 99, 100, 999, 1000].map((ms) => Date.UTC(2026, 10, 27, 3, 0, 0, ms));
    for (const time of [...times, Date.UTC(2027, 0, 1), Date.UTC(2027, 0, 1, 0, 0, 59, 999)]) {
      vi.setSystemTime(time);
      expect(timestamp()).toBe(new Date(time).toISOString());
      expect(timestamp()).toBe(new Date(time).toISOString());
    }
  });
});

describe('logTimed', () => {
  it('writes the time as timestamp() writes it, a space, then the line, whatever the millisecond', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const lines = lineWriter((bytes) => writes.push(Buffer.from(bytes).toString()));
    const times = [0, 1, 9, 10, 99, 100, 999, 1000].map((ms) => Date.UTC(2026, 10, 27, 3, 0, 0, ms));
    const expected: string[] = [];
    for (const time of [...times, Date.UTC(2027, 0, 1), Date.UTC(10_000, 0, 1, 0, 0, 59, 7)]) {
      vi.setSystemTime(time);
      lines.logTimed('avm.getBalance ok');
      expected.push(`${new Date(time).toISOString()} avm.getBalance ok\n`);
    }
    const long = 'é'.repeat(40_000);
    lines.logTimed(long);
    lines.flush();
    expect(writes).toEqual([
      expected.join(''),
      `${new Date(Date.UTC(10_000, 0, 1, 0, 0, 59, 7)).toISOString()} ${long}\n`,
    ]);
  });
});
