/**
 * The CLI's line per call, written in batches: Node writes stdout to a file or pipe synchronously, and a write per
 * call cost a fifth of the mock's throughput. Each line is copied as UTF-8 into the batch's buffer as it comes, so no
 * line stays on V8's heap: a string of a batch's lines outlived young-generation collections, which copied and then
 * promoted it. A line waits at most FLUSH_MS, or until the buffer is full; flush() writes what waits (the CLI calls it
 * as the process exits, so no line is lost).
 */
const FLUSH_MS = 50;
const BATCH_BYTES = 64 * 1024;

export interface LineWriter {
  log(line: string): void;
  flush(): void;
}

export function lineWriter(write: (bytes: Uint8Array) => void): LineWriter {
  let batch = Buffer.allocUnsafe(BATCH_BYTES);
  let used = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (used === 0) return;
    const lines = batch.subarray(0, used);
    // The next lines go to a new buffer: the writer may hold this one until its write completes.
    batch = Buffer.allocUnsafe(BATCH_BYTES);
    used = 0;
    write(lines);
  };
  return {
    log(line) {
      // A UTF-16 unit takes at most 3 bytes of UTF-8; the line feed one more.
      const most = line.length * 3 + 1;
      if (used + most > BATCH_BYTES) {
        flush();
        if (most > BATCH_BYTES) return write(Buffer.from(`${line}\n`));
      }
      used += batch.write(line, used);
      batch[used++] = 0x0a;
      if (!timer) {
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
let second = Number.NaN;
let secondText = '';

/**
 * The current time as each line starts it (`toISOString`), made once per millisecond from the second's text, made
 * once per second: at thousands of calls a second a new Date and its text for every line were a tenth of the line's
 * cost, and V8 writes that text with a printf (thousands of instructions).
 */
export function timestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    const ms = now % 1000;
    if (now - ms !== second) {
      second = now - ms;
      // Up to the decimal point: `2026-11-27T11:22:19.`
      secondText = new Date(second).toISOString().slice(0, -4);
    }
    stamp = `${secondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
  }
  return stamp;
}
