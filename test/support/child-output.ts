/**
 * A child process's output for tests: waits resolve on the output event that completes them, never by polling. Given
 * several streams (stdout and stderr), it reads them all at once and keeps their text in the order it arrived.
 */
import type { Readable } from 'node:stream';

export interface WatchedOutput {
  /** Everything written so far. */
  readonly text: string;
  /**
   * Resolves once `check` holds for the text; rejects when the streams end first, or after `deadlineMs` (a bound
   * against a hang, not a claim about speed).
   */
  when(check: (text: string) => boolean, deadlineMs?: number, what?: string): Promise<void>;
  /** The first match of `pattern` in the output, once there is one (as `when`). */
  until(pattern: RegExp, deadlineMs?: number): Promise<RegExpExecArray>;
  /** Everything written, once every stream has ended. */
  readonly ended: Promise<string>;
}

export function watchOutput(...streams: Readable[]): WatchedOutput {
  let text = '';
  let open = streams.length;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const check of [...waiters]) check();
  };
  const ended = Promise.all(
    streams.map((stream) => {
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        wake();
      });
      return new Promise<void>((done) =>
        stream.once('close', () => {
          open -= 1;
          wake();
          done();
        }),
      );
    }),
  ).then(() => text);
  const when: WatchedOutput['when'] = (check, deadlineMs = 120_000, what = 'the awaited output') =>
    new Promise((done, fail) => {
      const stop = () => {
        clearTimeout(timer);
        waiters.delete(test);
      };
      const test = () => {
        if (check(text)) {
          stop();
          done();
        } else if (open === 0) {
          stop();
          fail(new Error(`the output ended without ${what}: ${text.slice(-500)}`));
        }
      };
      const timer = setTimeout(() => {
        stop();
        fail(new Error(`no ${what} within ${deadlineMs} ms; the output ends: ${text.slice(-500)}`));
      }, deadlineMs);
      waiters.add(test);
      test();
    });
  return {
    get text() {
      return text;
    },
    ended,
    when,
    until: async (pattern, deadlineMs) => {
      let match: RegExpExecArray | null = null;
      await when((now) => (match = pattern.exec(now)) !== null, deadlineMs, String(pattern));
      return match!;
    },
  };
}
