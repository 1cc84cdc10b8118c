/** A child process's output for tests: `until` resolves on the output event that completes a match, never by polling. */
import type { Readable } from 'node:stream';

export interface WatchedOutput {
  /** Everything written so far. */
  readonly text: string;
  /**
   * The first match of `pattern` in the output, once there is one; rejects when the stream ends without one, or after
   * `deadlineMs` (a bound against a hang, not a claim about speed).
   */
  until(pattern: RegExp, deadlineMs?: number): Promise<RegExpExecArray>;
  /** Everything written, once the stream has ended. */
  readonly ended: Promise<string>;
}

export function watchOutput(stream: Readable): WatchedOutput {
  let text = '';
  let over = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const check of [...waiters]) check();
  };
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    wake();
  });
  const ended = new Promise<string>((done) =>
    stream.once('close', () => {
      over = true;
      wake();
      done(text);
    }),
  );
  return {
    get text() {
      return text;
    },
    ended,
    until: (pattern, deadlineMs = 120_000) =>
      new Promise((done, fail) => {
        const stop = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        const check = () => {
          const match = pattern.exec(text);
          if (match) {
            stop();
            done(match);
          } else if (over) {
            stop();
            fail(new Error(`the output ended without ${pattern}: ${text.slice(-500)}`));
          }
        };
        const timer = setTimeout(() => {
          stop();
          fail(new Error(`no ${pattern} within ${deadlineMs} ms; the output ends: ${text.slice(-500)}`));
        }, deadlineMs);
        waiters.add(check);
        check();
      }),
  };
}
