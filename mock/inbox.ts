/**
 * The mock HTTP server's input (./http.ts): bytes received and not yet taken. Appends grow the store by doubling and
 * the head's end is searched for only in new bytes, so a head sent a byte at a time costs what one sent whole does.
 * Taken bytes are never written over.
 */
const EMPTY = Buffer.alloc(0);

export class Inbox {
  private bytes: Buffer = EMPTY;
  private start = 0;
  private end = 0;
  private owned = false;
  private scanned = 0;

  get length(): number {
    return this.end - this.start;
  }

  push(chunk: Buffer): void {
    if (this.length === 0) {
      this.bytes = chunk;
      this.start = 0;
      this.end = chunk.length;
      this.owned = false;
      return;
    }
    if (!this.owned || this.end + chunk.length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(4096, 2 * (this.length + chunk.length)));
      this.bytes.copy(grown, 0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
      this.bytes = grown;
      this.owned = true;
    }
    chunk.copy(this.bytes, this.end);
    this.end += chunk.length;
  }

  /** Where the blank line ending a head starts, or -1; the bytes searched before are not searched again. */
  headEnd(): number {
    const found = this.bytes.subarray(this.start, this.end).indexOf('\r\n\r\n', Math.max(0, this.scanned - 3));
    this.scanned = found < 0 ? this.length : 0;
    return found;
  }

  /** The next `count` bytes as latin1 text, taken. */
  text(count: number): string {
    const text = this.bytes.toString('latin1', this.start, this.start + count);
    this.skip(count);
    return text;
  }

  take(count: number): Buffer {
    const taken = this.bytes.subarray(this.start, this.start + count);
    this.skip(count);
    return taken;
  }

  skip(count: number): void {
    this.start += count;
    this.scanned = Math.max(0, this.scanned - count);
    // Emptied, it lets go of its store: an idle connection holds no buffer.
    if (this.start === this.end) this.clear();
  }

  at(offset: number): number | undefined {
    return offset < this.length ? this.bytes[this.start + offset] : undefined;
  }

  /** Where `\r\n` starts, or -1. */
  lineEnd(): number {
    return this.bytes.subarray(this.start, this.end).indexOf('\r\n');
  }

  clear(): void {
    this.bytes = EMPTY;
    this.start = this.end = 0;
    this.owned = false;
    this.scanned = 0;
  }
}
