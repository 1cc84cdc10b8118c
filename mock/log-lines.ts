/**
 * The CLI's line per call, written in batches: Node writes stdout to a file or pipe synchronously, and a write per
 * call cost a fifth of the mock's throughput. A line waits at most FLUSH_MS, or until 64 KiB are waiting; flush()
 * writes what waits (the CLI calls it as the process exits, so no line is lost).
 */
const FLUSH_MS = 50;
const MAX_WAITING = 64 * 1024;

export interface LineWriter {
  log(line: string): void;
  flush(): void;
}

export function lineWriter(write: (text: string) => void): LineWriter {
  let waiting = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (waiting === '') return;
    const text = waiting;
    waiting = '';
    write(text);
  };
  return {
    log(line) {
      waiting += `${line}\n`;
      if (waiting.length >= MAX_WAITING) flush();
      else if (!timer) {
        timer = setTimeout(flush, FLUSH_MS);
        // A pending line never keeps the process alive: the exit hook writes it.
        timer.unref();
      }
    },
    flush,
  };
}

let stampedAt = Number.NaN;
let stamp = '';

/**
 * The current time as each line starts it (`toISOString`), made once per millisecond: at thousands of calls a second
 * a new Date and its text for every line were a tenth of the line's cost.
 */
export function timestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}
