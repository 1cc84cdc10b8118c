/**
 * A JSON reader that fails exactly where Go's encoding/json fails, with Go's messages, because the node's RPC layer
 * answers a malformed body with the decoder's own text (`invalid character '}' looking for beginning of object key
 * string`). It reads one value and ignores what follows (json.Decoder), replaces invalid UTF-8 inside strings with
 * U+FFFD byte by byte, and keeps the byte span of every top-level member so `id` can be echoed verbatim.
 */
import { goQuote } from './encode.ts';
import { type Shape, declaredBy, foldUncached } from './params.ts';
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
  /** Values built into objects and arrays: what members a reader drops must not cost. */
  built: number;
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
   * of an array (later ones skipped), read by `shape`; undefined where Go cannot decode into it.
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
    const parsed = reader.document();
    return { value: parsed.value as Record<string, unknown>, built: parsed.built };
  }
}

/**
 * `plain` builds every value; `request` reads a json2 request: only the envelope's own fields, with containers in
 * them left unbuilt and params kept as a RawValue; `shaped` builds only what the shape declares.
 */
type Mode = 'plain' | 'request' | 'shaped';

interface Container {
  kind: 'object' | 'array';
  value: Record<string, unknown> | unknown[];
  key: string;
  valueStart: number;
  /** Inside the request's `params` (its key matched as json2 matches it, case-insensitively). */
  params: boolean;
  /** Only checked: nothing inside is built. */
  skip: boolean;
  /** Where it starts, for a RawValue (params in request mode). */
  start: number;
  /** Handed on as a RawValue rather than built. */
  raw: boolean;
  /** How its members (or items) decode, in shaped mode. */
  shape: Shape | undefined;
  /** The current member: dropped (unknown to the shape, or not an envelope field), its name once decoded. */
  dropMember: boolean;
  name: string;
  memberShape: Shape | undefined;
  nullable: boolean;
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

const FIELDS = new Set(['JSONRPC', 'METHOD', 'PARAMS', 'ID']);

function parse(reader: Reader): ParsedValue {
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

  built = 0;

  private readonly bytes: Uint8Array;
  private readonly exactIntegers: boolean;
  private readonly mode: Mode;
  private readonly shape: Shape | undefined;
  constructor(bytes: Uint8Array, exactIntegers: boolean, mode: Mode, shape: Shape | undefined) {
    this.bytes = bytes;
    this.exactIntegers = exactIntegers;
    this.mode = mode;
    this.shape = shape;
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
      const top = this.stack[this.stack.length - 1];
      // Only checked, never built: inside a skipped container, or the value of a member dropped.
      const dropped = top !== undefined && (top.skip || (top.kind === 'object' && top.dropMember));
      if (c === 0x7b || c === 0x5b) {
        if (this.stack.length >= MAX_DEPTH) fail(c, 'exceeded max depth');
        const container = this.open(c === 0x7b ? 'object' : 'array', top, dropped);
        this.pos++;
        this.stack.push(container);
        opened = true;
        const next = this.skipSpace();
        if (container.kind === 'object') {
          if (next === 0x7d) {
            this.pos++;
            scalar = this.close();
            opened = false;
          } else this.readKey(container);
        } else if (next === 0x5d) {
          this.pos++;
          scalar = this.close();
          opened = false;
        }
      } else scalar = this.scalar(c, !dropped);
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
        this.hand(parent, finished, members);
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
        finished = this.close();
      }
      if (done) break;
      c = this.skipSpace();
    }
    return { value, members, end: this.pos, unsafeIntegers: this.unsafeIntegers, built: this.built };
  }

  /** The container opening at the position, inside `parent`; `dropped` when its value is only checked. */
  private open(kind: Container['kind'], parent: Container | undefined, dropped: boolean): Container {
    const container: Container = {
      kind,
      value: kind === 'object' ? {} : [],
      key: '',
      valueStart: 0,
      params: false,
      skip: dropped,
      start: this.pos,
      raw: false,
      shape: undefined,
      dropMember: false,
      name: '',
      memberShape: undefined,
      nullable: true,
    };
    if (this.mode === 'plain') {
      // A request is the top-level object or, in a batch, an object directly inside the top-level array.
      const request =
        parent?.kind === 'object' &&
        (this.stack.length === 1 || (this.stack.length === 2 && this.stack[0]!.kind === 'array'));
      container.params = parent !== undefined && (parent.params || (request && parent.key.toUpperCase() === 'PARAMS'));
    } else if (this.mode === 'request') {
      // json2 reads no batch: of a top-level array only the kind matters. Each field's container is only checked
      // (only its kind and its bytes are used), params kept as raw bytes for the method's decoder.
      if (parent === undefined) container.skip = kind === 'array';
      else {
        const params = !dropped && this.stack.length === 1 && parent.name === 'PARAMS';
        container.skip = true;
        container.raw = params;
        container.params = parent.params || params;
      }
    } else {
      container.params = true;
      if (!dropped)
        container.shape =
          parent === undefined ? this.shape : parent.kind === 'object' ? parent.memberShape : parent.shape?.items;
    }
    return container;
  }

  /** The container just ended, popped: its value, or its bytes as a RawValue. */
  private close(): unknown {
    const container = this.stack.pop()!;
    return container.raw ? new RawValue(this.bytes, container.start, this.pos, this.exactIntegers) : container.value;
  }

  /** Gives a finished member or item to its container, unless dropped; the last duplicate of a name wins. */
  private hand(parent: Container, finished: unknown, members: Member[]): void {
    if (parent.skip) return;
    if (parent.kind === 'array') {
      (parent.value as unknown[]).push(finished);
      this.built++;
      return;
    }
    if (parent.dropMember) return;
    const top = this.stack.length === 1;
    if (this.mode === 'request') {
      if (top) members.push({ key: parent.key, value: finished, start: parent.valueStart, end: this.pos });
      return;
    }
    if (this.mode === 'shaped') {
      // Go leaves a field that is not a pointer as it was when the value is null.
      if (finished !== null || parent.nullable) {
        setMember(parent.value as Record<string, unknown>, parent.name, finished);
        this.built++;
      }
      return;
    }
    setMember(parent.value as Record<string, unknown>, parent.key, finished);
    this.built++;
    if (top) members.push({ key: parent.key, value: finished, start: parent.valueStart, end: this.pos });
  }

  /** Reads `"key" :` and leaves the position at the value, recording where the value starts. */
  private readKey(container: Container): void {
    const c = this.peek();
    if (c !== 0x22) fail(c, 'looking for beginning of object key string');
    const key = this.string(!container.skip);
    container.key = key;
    if (!container.skip) this.member(container, key);
    const colon = this.skipSpace();
    if (colon !== 0x3a) fail(colon, 'after object key');
    this.pos++;
    this.skipSpace();
    container.valueStart = this.pos;
  }

  /**
   * What becomes of the member `key`: in a request, only the envelope's fields are kept (folded as json2 matches
   * them); in shaped mode, a declared property takes its declared name and shape, a map's key is kept, and any other
   * key is dropped, as encoding/json ignores unknown fields.
   */
  private member(container: Container, key: string): void {
    if (this.mode === 'request') {
      if (this.stack.length !== 1) return;
      // No key of more than twice the longest field's length folds to one (see declaredBy).
      container.name = key.length > 14 ? '' : foldUncached(key);
      container.dropMember = !FIELDS.has(container.name);
      return;
    }
    if (this.mode !== 'shaped') return;
    const shape = container.shape;
    if (shape === undefined || (shape.properties === undefined && shape.values === undefined)) {
      container.name = key;
      container.memberShape = undefined;
      container.nullable = true;
      return;
    }
    const declared = declaredBy(shape, key);
    container.dropMember = declared === undefined && shape.values === undefined;
    container.name = declared?.name ?? key;
    container.memberShape = declared ? declared.shape : shape.values;
    container.nullable = declared ? declared.nullable === true : true;
  }

  /** The scalar at the position; with `build` false only checked (null stands for it). */
  private scalar(c: number, build: boolean): unknown {
    if (c === 0x22) return this.string(build);
    if (c === 0x2d || isDigit(c)) return this.number(build);
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
  private number(build: boolean): number | string | null {
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
    const params = this.stack[this.stack.length - 1]?.params;
    if (!build) {
      // Unbuilt params are decoded later: whether one of their integers is beyond 2^53 is told now, by its length.
      if (params && this.pos - start >= 16) {
        const text = asciiSlice(bytes, start, this.pos);
        if (!refusedAsUint(text) && !Number.isSafeInteger(Number(text))) this.unsafeIntegers = true;
      }
      return null;
    }
    const text = asciiSlice(bytes, start, this.pos);
    // Every number a param's schema allows is an unsigned integer; a literal Go refuses there becomes NaN, which every
    // schema type refuses too, so the validators answer the node's decode error wherever such a number is sent.
    const value = Number(text);
    if (!params) return value;
    if (refusedAsUint(text)) return Number.NaN;
    if (Number.isSafeInteger(value)) return value;
    this.unsafeIntegers = true;
    return this.exactIntegers ? text : value;
  }

  /** The string at the position; with `build` false only checked (the empty string stands for it). */
  private string(build = true): string {
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
    if (!build) return '';
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
