/**
 * A JSON reader that fails exactly where Go's encoding/json fails, with Go's messages, because the node's RPC layer
 * answers a malformed body with the decoder's own text (`invalid character '}' looking for beginning of object key
 * string`). It reads one value and ignores what follows (json.Decoder), replaces invalid UTF-8 inside strings with
 * U+FFFD byte by byte, and keeps the byte span of every top-level member so `id` can be echoed verbatim.
 */
import { goQuote } from './encode.ts';
import { asciiSlice, unquote } from './text.ts';

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
}

const MAX_DEPTH = 10000;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Go's quoteChar: the byte as a rune, quoted as strconv.Quote quotes it (goQuote), between single quotes. */
export function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  return `'${goQuote(String.fromCharCode(c)).slice(1, -1)}'`;
}

function fail(c: number, context: string): never {
  throw new GoSyntaxError(`invalid character ${quoteChar(c)} ${context}`);
}

class UnexpectedEnd extends Error {}

interface Container {
  kind: 'object' | 'array';
  value: Record<string, unknown> | unknown[];
  key: string;
  valueStart: number;
  /** Inside the request's `params` (its key matched as json2 matches it, case-insensitively). */
  params: boolean;
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
  const reader = new Reader(bytes, exactIntegers);
  try {
    return reader.document();
  } catch (error) {
    if (error instanceof UnexpectedEnd) throw new GoSyntaxError(reader.sawValue ? 'unexpected EOF' : 'EOF');
    throw error;
  }
}

class Reader {
  pos = 0;
  sawValue = false;
  unsafeIntegers = false;
  private readonly stack: Container[] = [];

  private readonly bytes: Uint8Array;
  private readonly exactIntegers: boolean;
  constructor(bytes: Uint8Array, exactIntegers: boolean) {
    this.bytes = bytes;
    this.exactIntegers = exactIntegers;
  }

  private peek(): number {
    if (this.pos >= this.bytes.length) throw new UnexpectedEnd();
    return this.bytes[this.pos]!;
  }

  private skipSpace(): number {
    while (this.pos < this.bytes.length && isSpace(this.bytes[this.pos]!)) this.pos++;
    return this.peek();
  }

  document(): ParsedValue {
    this.skipSpace();
    this.sawValue = true;
    const members: Member[] = [];
    let value: unknown;
    let done = false;
    let c = this.peek();
    // Each turn reads one scalar or opens a container; closing brackets hand the finished value to the parent.
    for (;;) {
      let scalar: unknown;
      let opened = false;
      if (c === 0x7b || c === 0x5b) {
        if (this.stack.length >= MAX_DEPTH) fail(c, 'exceeded max depth');
        this.pos++;
        const parent = this.stack[this.stack.length - 1];
        // A request is the top-level object or, in a batch, an object directly inside the top-level array.
        const request =
          parent?.kind === 'object' &&
          (this.stack.length === 1 || (this.stack.length === 2 && this.stack[0]!.kind === 'array'));
        const params = parent !== undefined && (parent.params || (request && parent.key.toUpperCase() === 'PARAMS'));
        const container: Container = {
          kind: c === 0x7b ? 'object' : 'array',
          value: c === 0x7b ? {} : [],
          key: '',
          valueStart: 0,
          params,
        };
        this.stack.push(container);
        opened = true;
        const next = this.skipSpace();
        if (container.kind === 'object') {
          if (next === 0x7d) {
            this.pos++;
            scalar = this.stack.pop()!.value;
            opened = false;
          } else this.readKey(container);
        } else if (next === 0x5d) {
          this.pos++;
          scalar = this.stack.pop()!.value;
          opened = false;
        }
      } else scalar = this.scalar(c);
      if (opened) {
        c = this.skipSpace();
        continue;
      }
      // Hand `scalar` (a finished value) to its parent, closing every container that ends right after it.
      let finished = scalar;
      for (;;) {
        const parent = this.stack[this.stack.length - 1];
        if (!parent) {
          value = finished;
          done = true;
          break;
        }
        if (parent.kind === 'object') {
          setMember(parent.value as Record<string, unknown>, parent.key, finished);
          if (this.stack.length === 1)
            members.push({ key: parent.key, value: finished, start: parent.valueStart, end: this.pos });
        } else (parent.value as unknown[]).push(finished);
        const after = this.skipSpace();
        if (after === 0x2c) {
          this.pos++;
          if (parent.kind === 'object') {
            const quote = this.skipSpace();
            if (quote !== 0x22) fail(quote, 'looking for beginning of object key string');
            this.readKey(parent);
          }
          break;
        }
        const close = parent.kind === 'object' ? 0x7d : 0x5d;
        if (after !== close)
          fail(after, parent.kind === 'object' ? 'after object key:value pair' : 'after array element');
        this.pos++;
        finished = this.stack.pop()!.value;
      }
      if (done) break;
      c = this.skipSpace();
    }
    return { value, members, end: this.pos, unsafeIntegers: this.unsafeIntegers };
  }

  /** Reads `"key" :` and leaves the position at the value, recording where the value starts. */
  private readKey(container: Container): void {
    const c = this.peek();
    if (c !== 0x22) fail(c, 'looking for beginning of object key string');
    container.key = this.string();
    const colon = this.skipSpace();
    if (colon !== 0x3a) fail(colon, 'after object key');
    this.pos++;
    this.skipSpace();
    container.valueStart = this.pos;
  }

  private scalar(c: number): unknown {
    if (c === 0x22) return this.string();
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x74) return this.literal('true', true);
    if (c === 0x66) return this.literal('false', false);
    if (c === 0x6e) return this.literal('null', null);
    fail(c, 'looking for beginning of value');
  }

  private literal(word: string, value: unknown): unknown {
    this.pos++;
    for (let i = 1; i < word.length; i++) {
      const c = this.peek();
      if (c !== word.charCodeAt(i)) fail(c, `in literal ${word} (expecting '${word[i]}')`);
      this.pos++;
    }
    return value;
  }

  /** A number ends at the first byte that cannot continue it; at the very end of a top-level value that is fine. */
  private number(): number | string {
    const bytes = this.bytes;
    const start = this.pos;
    const atEnd = () => this.pos >= bytes.length;
    const digits = () => {
      while (!atEnd() && isDigit(bytes[this.pos]!)) this.pos++;
    };
    if (bytes[this.pos] === 0x2d) {
      this.pos++;
      const c = this.peek();
      if (!isDigit(c)) fail(c, 'in numeric literal');
    }
    if (bytes[this.pos] === 0x30) this.pos++;
    else digits();
    if (!atEnd() && bytes[this.pos] === 0x2e) {
      this.pos++;
      const c = this.peek();
      if (!isDigit(c)) fail(c, 'after decimal point in numeric literal');
      digits();
    }
    if (!atEnd() && (bytes[this.pos] === 0x65 || bytes[this.pos] === 0x45)) {
      this.pos++;
      let c = this.peek();
      if (c === 0x2b || c === 0x2d) {
        this.pos++;
        c = this.peek();
      }
      if (!isDigit(c)) fail(c, 'in exponent of numeric literal');
      digits();
    }
    if (atEnd() && this.stack.length > 0) throw new UnexpectedEnd();
    const text = asciiSlice(bytes, start, this.pos);
    // Every number a param's schema allows is an unsigned integer; a literal Go refuses there becomes NaN, which every
    // schema type refuses too, so the validators answer the node's decode error wherever such a number is sent.
    const value = Number(text);
    if (!this.stack[this.stack.length - 1]?.params) return value;
    if (refusedAsUint(text)) return Number.NaN;
    if (Number.isSafeInteger(value)) return value;
    this.unsafeIntegers = true;
    return this.exactIntegers ? text : value;
  }

  private string(): string {
    const bytes = this.bytes;
    const length = bytes.length;
    const start = ++this.pos;
    let pos = start;
    let plain = true;
    // The common case, plain characters, runs in this tight loop; escapes and errors take the careful path.
    for (;;) {
      if (pos >= length) {
        this.pos = pos;
        throw new UnexpectedEnd();
      }
      const c = bytes[pos]!;
      if (c === 0x22) break;
      if (c === 0x5c || c < 0x20) {
        this.pos = pos;
        this.escape(c);
        pos = this.pos;
        plain = false;
        continue;
      }
      if (c >= 0x80) plain = false;
      pos++;
    }
    this.pos = pos + 1;
    return plain ? asciiSlice(bytes, start, pos) : unquote(bytes, start, pos);
  }

  /** Checks the escape (or control character) at the position and moves past it. */
  private escape(c: number): void {
    if (c < 0x20) fail(c, 'in string literal');
    this.pos++;
    const e = this.peek();
    if (e === 0x75) {
      for (let i = 0; i < 4; i++) {
        this.pos++;
        const h = this.peek();
        if (!isHex(h)) fail(h, 'in \\u hexadecimal character escape');
      }
    } else if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) fail(e, 'in string escape code');
    this.pos++;
  }
}

/** A key named `__proto__` is data, as it is for JSON.parse, never the object's prototype. */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
