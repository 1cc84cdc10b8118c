/**
 * Deterministic randomness: the same seed gives the same sequence on every run and platform, so the same request
 * always gets the same answer. Each value of an answer draws from its own fork (named by its place in the answer),
 * so adding a field to the spec does not change the others.
 */
import { createHash } from 'node:crypto';

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  readonly seed: string;
  constructor(seed: string) {
    this.seed = seed;
    const digest = createHash('sha256').update(seed).digest();
    [this.a, this.b, this.c, this.d] = [0, 4, 8, 12].map((offset) => digest.readUInt32LE(offset)) as [
      number,
      number,
      number,
      number,
    ];
    for (let i = 0; i < 12; i++) this.next();
  }

  /** sfc32: small, fast, and good enough for picking mock values. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    if (max <= min) return min;
    const span = max - min + 1;
    return min + (span <= 0x100000000 ? this.next() % span : Math.floor((this.next() / 0x100000000) * span));
  }

  chance(probability: number): boolean {
    return this.next() / 0x100000000 < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = this.next() & 0xff;
    return out;
  }

  fork(label: string): Random {
    return new Random(`${this.seed}\u0000${label}`);
  }
}
