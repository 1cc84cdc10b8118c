/** A child process's output for tests: `until` resolves on the output event that completes a match, never by polling. */
import type { Readable } from 'node:stream';

export interface WatchedOutput {
  /** Everything written so far. */
  readonly text: string;
  /** The first match of `pattern` in the output, once there is one; rejects after `deadlineMs` (a bound, not a claim). */
  until(pattern: RegExp, deadlineMs?: number): Promise<RegExpExecArray>;
}

export function watchOutput(stream: Readable): WatchedOutput {
  let text = '';
  const waiters = new Set<() => void>();
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const check of [...waiters]) check();
  });
  return {
    get text() {
      return text;
    },
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
