/**
 * geth's access-list tracer (libevm eth/tracers/logger/access_list_tracer.go) over what the engine's debug_traceCall
 * gives: the slots SLOAD and SSTORE name, under the address whose storage they are, and the addresses BALANCE,
 * EXTCODE*, SELFDESTRUCT and the calls name, but those excluded (the sender, the recipient, the precompiles). The
 * engine's prestateTracer lists exactly the accounts and slots the run loaded, without a step trace's cost (some 30 µs
 * and 800 bytes a step, ./access-list.ts).
 */
import type { AccessTuple } from './access-list-args.ts';

/** One step of the engine's trace (its stack's top last). */
export interface StructLog {
  op: string;
  pc: number;
  depth: number;
  stack?: string[];
  error?: string;
}

/** The engine's debug_traceCall answer. */
export interface Trace {
  gas: number;
  failed: boolean;
  structLogs: StructLog[];
}

const word = (value: string) => value.slice(2).padStart(64, '0').toLowerCase();

/** The tracer's accessList: addresses in the order first touched, each with its slots. */
export class AccessSet {
  readonly entries = new Map<string, Set<string>>();
  private readonly excluded: ReadonlySet<string>;

  constructor(excluded: ReadonlySet<string>) {
    this.excluded = excluded;
  }

  addAddress(address: string): void {
    if (!this.excluded.has(address) && !this.entries.has(address)) this.entries.set(address, new Set());
  }

  /** addSlot adds the address even when it is excluded (the contract called reads its own storage). */
  addSlot(address: string, slot: string): void {
    if (!this.entries.has(address)) this.entries.set(address, new Set());
    this.entries.get(address)!.add(slot);
  }

  equal(other: AccessSet): boolean {
    if (this.entries.size !== other.entries.size) return false;
    for (const [address, slots] of this.entries) {
      const theirs = other.entries.get(address);
      if (!theirs || theirs.size !== slots.size || [...slots].some((slot) => !theirs.has(slot))) return false;
    }
    return true;
  }

  list(): AccessTuple[] {
    return [...this.entries].map(([address, slots]) => ({ address, storageKeys: [...slots] }));
  }

  /** NewAccessListTracer's starting list. */
  static from(list: readonly AccessTuple[], excluded: ReadonlySet<string>): AccessSet {
    const set = new AccessSet(excluded);
    for (const { address, storageKeys } of list) {
      set.addAddress(address.toLowerCase());
      for (const slot of storageKeys ?? []) set.addSlot(address.toLowerCase(), `0x${word(slot ?? '0x')}`);
    }
    return set;
  }
}

/** The engine's prestateTracer answer: each account the run loaded, with the slots it read or wrote. */
export type Prestate = Record<string, { code?: string; storage?: Record<string, string> }>;

/** One frame of the engine's callTracer answer. */
export interface CallFrame {
  type: string;
  to?: string;
  input: string;
  gasUsed: string;
  error?: string;
  calls?: CallFrame[];
}

/** The frame and every frame under it. */
export const framesOf = (frame: CallFrame): CallFrame[] => [frame, ...(frame.calls ?? []).flatMap(framesOf)];

/**
 * The run's accesses as the tracer lists them, from the accounts and slots the engine loaded: the accounts a
 * CREATE/CREATE2 made (which the tracer never names) and the engine's coinbase (which it loads to pay) are listed only
 * with slots, as excluded ones are.
 */
export function collect(prestate: Prestate, unnamed: ReadonlySet<string>, set: AccessSet): void {
  for (const [address, { storage }] of Object.entries(prestate)) {
    const slots = Object.keys(storage ?? {});
    if (slots.length === 0 && !unnamed.has(address)) set.addAddress(address);
    for (const slot of slots) set.addSlot(address, `0x${word(slot)}`);
  }
}

const CALL_OPCODES = new Set([0xf1, 0xf2, 0xf4, 0xfa]);

/**
 * Whether `code` holds a GAS opcode that does not hand its word straight to a call (a run may branch on it, and so take
 * another course with another gas limit); PUSH data skipped.
 */
export function readsGas(code: string): boolean {
  const bytes = Buffer.from(code.slice(2), 'hex');
  for (let pc = 0; pc < bytes.length; pc++) {
    const op = bytes[pc]!;
    if (op === 0x5a && !CALL_OPCODES.has(bytes[pc + 1] ?? 0)) return true;
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f;
  }
  return false;
}
