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
  /** The line after the current time and a space, the time written as bytes beside it: no string joins the two. */
  logTimed(line: string): void;
  flush(): void;
}

/** What the time takes before a line: `2026-11-27T11:22:19.123Z ` (a year past 9999 takes more, as toISOString). */
const TIME_BYTES = 32;

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
  /** Room for `most` bytes in the batch: false when even an empty batch has none (the line is then written alone). */
  const room = (most: number): boolean => {
    if (used + most > BATCH_BYTES) {
      flush();
      if (most > BATCH_BYTES) return false;
    }
    return true;
  };
  const end = (line: string) => {
    used += batch.write(line, used);
    batch[used++] = 0x0a;
    if (!timer) {
      timer = setTimeout(flush, FLUSH_MS);
      // A pending line never keeps the process alive: the exit hook writes it.
      timer.unref();
    }
  };
  return {
    log(line) {
      // A UTF-16 unit takes at most 3 bytes of UTF-8; the line feed one more.
      if (room(line.length * 3 + 1)) end(line);
      else write(Buffer.from(`${line}\n`));
    },
    logTimed(line) {
      if (!room(TIME_BYTES + line.length * 3 + 1)) return write(Buffer.from(`${timestamp()} ${line}\n`));
      used = writeTime(batch, used);
      end(line);
    },
    flush,
  };
}

let second = Number.NaN;
let secondText = '';
let secondBytes = Buffer.alloc(0);

/**
 * The text of the current time up to its decimal point (`2026-11-27T11:22:19.`), made once per second: V8 writes a
 * Date's text with a printf (thousands of instructions), and a mock serves thousands of calls a second.
 */
function secondOf(now: number): void {
  if (now - (now % 1000) === second) return;
  second = now - (now % 1000);
  secondText = new Date(second).toISOString().slice(0, -4);
  secondBytes = Buffer.from(secondText, 'latin1');
}

/** The current time as `toISOString` writes it. */
export function timestamp(): string {
  const now = Date.now();
  secondOf(now);
  return `${secondText}${String(now % 1000).padStart(3, '0')}Z`;
}

/**
 * The current time as `timestamp()` writes it and a space, written into `into` at `at`; returns the index after them.
 * Joining the time's text and the line was a string made and flattened per line (bench/README.md).
 */
function writeTime(into: Buffer, at: number): number {
  const now = Date.now();
  secondOf(now);
  into.set(secondBytes, at);
  at += secondBytes.length;
  const ms = now % 1000;
  into[at++] = 0x30 + Math.floor(ms / 100);
  into[at++] = 0x30 + (Math.floor(ms / 10) % 10);
  into[at++] = 0x30 + (ms % 10);
  into[at++] = 0x5a;
  into[at++] = 0x20;
  return at;
}
