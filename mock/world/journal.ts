/**
 * Every change to a world goes through a Table (or Cell) of that world, which records how to undo it in the world's
 * journal. A snapshot is the journal's length; reverting undoes entries back to it, so a snapshot costs nothing and a
 * revert costs the changes made since, whatever the world's size (100,000 UTXOs or more).
 */
export class Journal {
  private readonly undo: Array<() => void> = [];
  /** Off while a world is built: changes then are the starting state, with nothing to undo. */
  recording = true;

  record(step: () => void): void {
    if (this.recording) this.undo.push(step);
  }

  /** A mark to revert to. Reverting to it again later undoes the changes made since, each time. */
  snapshot(): number {
    return this.undo.length;
  }

  revert(mark: number): void {
    if (!Number.isInteger(mark) || mark < 0 || mark > this.undo.length) throw new Error(`no snapshot ${mark}`);
    while (this.undo.length > mark) this.undo.pop()!();
  }

  /** Forgets the undo steps (after a reset, or at start-up): older marks become invalid. */
  clear(): void {
    this.undo.length = 0;
  }
}

/** A Map whose changes are journaled. Reads are Map's own; `onChange` lets derived indexes follow every change. */
export class Table<K, V> {
  private readonly map = new Map<K, V>();

  private readonly journal: Journal;
  private readonly onChange?: (key: K, before: V | undefined, after: V | undefined) => void;
  constructor(journal: Journal, onChange?: (key: K, before: V | undefined, after: V | undefined) => void) {
    this.journal = journal;
    this.onChange = onChange;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  get size(): number {
    return this.map.size;
  }

  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  set(key: K, value: V): void {
    const had = this.map.has(key);
    const before = this.map.get(key);
    this.map.set(key, value);
    this.onChange?.(key, before, value);
    if (!this.journal.recording) return;
    this.journal.record(() => {
      if (had) this.map.set(key, before as V);
      else this.map.delete(key);
      this.onChange?.(key, value, before);
    });
  }

  delete(key: K): boolean {
    if (!this.map.has(key)) return false;
    const before = this.map.get(key) as V;
    this.map.delete(key);
    this.onChange?.(key, before, undefined);
    this.journal.record(() => {
      this.map.set(key, before);
      this.onChange?.(key, undefined, before);
    });
    return true;
  }
}

/** One journaled value (the chain time, the fee state). */
export class Cell<V> {
  private readonly journal: Journal;
  private current: V;
  constructor(journal: Journal, current: V) {
    this.journal = journal;
    this.current = current;
  }

  get(): V {
    return this.current;
  }

  set(value: V): void {
    const before = this.current;
    this.current = value;
    this.journal.record(() => {
      this.current = before;
    });
  }
}

/** An append-only list (a chain's blocks by height) whose appends are journaled. */
export class Log<V> {
  private readonly items: V[] = [];

  private readonly journal: Journal;
  constructor(journal: Journal) {
    this.journal = journal;
  }

  get length(): number {
    return this.items.length;
  }

  at(index: number): V | undefined {
    return index >= 0 ? this.items[index] : undefined;
  }

  last(): V | undefined {
    return this.items[this.items.length - 1];
  }

  push(value: V): void {
    this.items.push(value);
    this.journal.record(() => {
      this.items.pop();
    });
  }

  /** Drops the items from `length` on (a loaded state replacing a chain's blocks); a revert puts them back. */
  truncate(length: number): void {
    const removed = this.items.splice(length);
    if (removed.length === 0) return;
    this.journal.record(() => {
      this.items.push(...removed);
    });
  }
}
