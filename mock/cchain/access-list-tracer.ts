/**
 * geth's access-list tracer (libevm eth/tracers/logger/access_list_tracer.go) over the engine's debug_traceCall steps:
 * the slots SLOAD and SSTORE name, under the address whose storage they are, and the addresses BALANCE, EXTCODE*,
 * SELFDESTRUCT and the calls name, but those excluded (the sender, the recipient, the precompiles).
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
const addressWord = (value: string) => `0x${word(value).slice(24)}`;

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

const SLOT_OPS = new Set(['SLOAD', 'SSTORE']);
const ADDRESS_OPS = new Set(['EXTCODECOPY', 'EXTCODEHASH', 'EXTCODESIZE', 'BALANCE', 'SELFDESTRUCT']);
export const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);
/**
 * The errors geth raises after the tracer's CaptureState has seen the opcode (a write in a static call); an opcode
 * that fails its gas or stack check before (the engine logs it with that error) never reaches the tracer.
 */
const AFTER_CAPTURE = /StateChangeDuringStaticCall|CallNotAllowedInsideStatic/;

/** The address a CREATE/CREATE2 at `at` deployed to: the word it left on its frame's stack, read at the next step. */
function createdAddress(logs: readonly StructLog[], at: number): string | undefined {
  const depth = logs[at]!.depth;
  for (let i = at + 1; i < logs.length; i++) {
    if (logs[i]!.depth < depth) return undefined;
    if (logs[i]!.depth === depth) return addressWord(logs[i]!.stack?.at(-1) ?? '0x0');
  }
  return undefined;
}

/** CaptureState over the engine's steps: each frame's own address (scope.Contract.Address()) tracked by depth. */
export function capture(logs: readonly StructLog[], self: string, set: AccessSet): void {
  const frames: Array<string | undefined> = [self];
  let callee: string | undefined;
  for (const [i, log] of logs.entries()) {
    if (log.depth > frames.length) frames.push(callee);
    frames.length = log.depth;
    const stack = log.stack ?? [];
    const here = frames[log.depth - 1];
    const op = log.op;
    callee =
      op === 'CALL' || op === 'STATICCALL'
        ? stack.length >= 2
          ? addressWord(stack.at(-2)!)
          : undefined
        : op === 'DELEGATECALL' || op === 'CALLCODE'
          ? here
          : op === 'CREATE' || op === 'CREATE2'
            ? createdAddress(logs, i)
            : undefined;
    if (log.error !== undefined && !AFTER_CAPTURE.test(log.error)) continue;
    if (SLOT_OPS.has(op) && stack.length >= 1 && here) set.addSlot(here, `0x${word(stack.at(-1)!)}`);
    if (ADDRESS_OPS.has(op) && stack.length >= 1) set.addAddress(addressWord(stack.at(-1)!));
    if (CALL_OPS.has(op) && stack.length >= 5) set.addAddress(addressWord(stack.at(-2)!));
  }
}
