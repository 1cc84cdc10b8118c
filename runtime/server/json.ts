/**
 * A JSON reader that fails exactly where Go's encoding/json fails, with Go's messages, because the node's RPC layer
 * answers a malformed body with the decoder's own text (`invalid character '}' looking for beginning of object key
 * string`). It reads one value and ignores what follows (json.Decoder), replaces invalid UTF-8 inside strings with
 * U+FFFD byte by byte, and keeps the byte span of every top-level member so `id` can be echoed verbatim.
 */
import { goQuote } from './encode.ts';
import type { Shape } from './params.ts';
import { KindMismatch, Reader, UnexpectedEnd, isSpace } from './reader.ts';

export class GoSyntaxError extends Error {}

export interface Member {
  key: string;
  value: unknown;
  start: number;
  end: number;
}

export interface ParsedValue {
  value: unknown;
  /** Members of a top-level object in the order written (duplicates included); empty otherwise. */
  members: Member[];
  /** Where the value ends; Go's decoder ignores what follows. */
  end: number;
  /**
   * Whether a number in params is an integer beyond 2^53, which a JavaScript number rounds and Go's decoder reads
   * exactly: read again with `exactIntegers` to have its digits.
   */
  unsafeIntegers: boolean;
  /** Values built into objects and arrays: what members a reader drops must not cost. */
  built: number;
}

/** Go's quoteChar: the byte as a rune, quoted as strconv.Quote quotes it (goQuote), between single quotes. */
export function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  return `'${goQuote(String.fromCharCode(c)).slice(1, -1)}'`;
}

/**
 * A request's params as json2 keeps them, a json.RawMessage: checked, not built, until the method is known and its
 * args struct says which members to read (decode). Building first cost seconds for a million unknown keys, which
 * Go's decoder skips.
 */
export class RawValue {
  readonly bytes: Uint8Array;
  readonly start: number;
  readonly end: number;
  readonly exactIntegers: boolean;
  constructor(bytes: Uint8Array, start: number, end: number, exactIntegers: boolean) {
    this.bytes = bytes;
    this.start = start;
    this.end = end;
    this.exactIntegers = exactIntegers;
  }

  /**
   * The args struct as Go fills it (runtime/server/params.ts nodeArgs, foldValue): the object, or the first element
   * of an array (later ones skipped), read by `shape`; undefined where Go cannot decode into it, such as where any
   * writing of a declared key holds a kind of value its field cannot take (read no further: not built).
   */
  decode(shape: Shape): Record<string, unknown> | undefined {
    return this.read(shape).value;
  }

  /** The decoding, with the count of values built into objects and arrays on the way. */
  read(shape: Shape): { value: Record<string, unknown> | undefined; built: number } {
    const bytes = this.bytes;
    let at = this.start;
    if (bytes[at] === 0x5b) {
      at++;
      while (isSpace(bytes[at]!)) at++;
      if (bytes[at] === 0x5d || bytes[at] === 0x6e) return { value: {}, built: 0 };
    }
    if (bytes[at] !== 0x7b) return { value: undefined, built: 0 };
    const reader = new Reader(bytes.subarray(0, this.end), this.exactIntegers, 'shaped', shape);
    reader.pos = at;
    try {
      const parsed = reader.document();
      return { value: parsed.value as Record<string, unknown>, built: parsed.built };
    } catch (error) {
      if (error instanceof KindMismatch) return { value: undefined, built: reader.built };
      throw error;
    }
  }
}

const UINT64_MAX = '18446744073709551615';

/**
 * Whether Go's decoder refuses the literal for every integer kind the spec's params use (all unsigned): a fraction,
 * an exponent, negative zero, or digits above 2^64-1. strconv.ParseUint refuses them though JavaScript reads them as
 * integers (`1e2`, `1.0`, `-0`, 2^64+1000 rounding to 2^64).
 */
export function refusedAsUint(text: string): boolean {
  if (text === '-0') return true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e || c === 0x65 || c === 0x45) return true;
  }
  if (text.length < UINT64_MAX.length) return false;
  return text[0] !== '-' && (text.length > UINT64_MAX.length || text > UINT64_MAX);
}

/**
 * Parses the first JSON value of `bytes`. Throws GoSyntaxError with Go's message (`EOF` for an empty body,
 * `unexpected EOF` for a cut one). With `exactIntegers`, an integer in params beyond 2^53 is read as its digits.
 */
export function parseFirstValue(bytes: Uint8Array, exactIntegers = false): ParsedValue {
  return parse(new Reader(bytes, exactIntegers, 'plain', undefined));
}

/**
 * Reads a json2 request as Go's decoder fills its serverRequest: `members` holds only the four fields (matched
 * case-insensitively), containers in them are checked but left empty, and params is a RawValue.
 */
export function parseRequest(bytes: Uint8Array, exactIntegers = false): ParsedValue {
  return parse(new Reader(bytes, exactIntegers, 'request', undefined));
}

function parse(reader: Reader): ParsedValue {
  try {
    return reader.document();
  } catch (error) {
    if (error instanceof UnexpectedEnd) throw new GoSyntaxError(reader.sawValue ? 'unexpected EOF' : 'EOF');
    throw error;
  }
}

/** A key named `__proto__` is data, as it is for JSON.parse, never the object's prototype. */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
