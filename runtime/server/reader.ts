/**
 * The Go-compatible reader behind ./json.ts: one pass over the bytes, no recursion (10,000 levels cost no stack),
 * building only what its mode asks for and checking the rest as Go's scanner does.
 */
import { GoSyntaxError, type Member, type ParsedValue, RawValue, quoteChar, refusedAsUint, setMember } from './json.ts';
import { type Shape, declaredBy, foldUncached } from './params.ts';
import { asciiSlice, unquote } from './text.ts';

const MAX_DEPTH = 10000;

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function fail(c: number, context: string): never {
  throw new GoSyntaxError(`invalid character ${quoteChar(c)} ${context}`);
}

export class UnexpectedEnd extends Error {}

/**
 * A value of a kind its declared field cannot take, in shaped mode: Go's decoder skips it and fails the whole decoding,
 * so reading stops there, before the value is read at all (the bytes are valid JSON, checked by the request reader).
 */
export class KindMismatch extends Error {}

/** The kind of the value starting with `c`, as a shape's `types` names it; undefined for null, which fits any field. */
function kindAt(c: number): string | undefined {
  if (c === 0x7b) return 'object';
  if (c === 0x5b) return 'array';
  if (c === 0x22) return 'string';
  if (c === 0x74 || c === 0x66) return 'boolean';
  if (c === 0x6e) return undefined;
  return 'number';
}

/**
 * `plain` builds every value; `request` reads a json2 request: only the envelope's own fields, with containers in
 * them left unbuilt and params kept as a RawValue; `shaped` builds only what the shape declares.
 */
export type Mode = 'plain' | 'request' | 'shaped';

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
  /** The kinds the current member's value may be (PropertyShape.types), in shaped mode. */
  memberTypes: string | undefined;
  nullable: boolean;
}

const FIELDS = new Set(['JSONRPC', 'METHOD', 'PARAMS', 'ID']);

export class Reader {
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
      if (this.mode === 'shaped' && top !== undefined && !dropped) {
        const types = top.kind === 'object' ? top.memberTypes : top.shape?.itemTypes;
        const kind = types === undefined ? undefined : kindAt(c);
        if (kind !== undefined && !types!.includes(kind)) throw new KindMismatch();
      }
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
      memberTypes: undefined,
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
      container.memberTypes = undefined;
      container.nullable = true;
      return;
    }
    const declared = declaredBy(shape, key);
    container.dropMember = declared === undefined && shape.values === undefined;
    container.name = declared?.name ?? key;
    container.memberShape = declared ? declared.shape : shape.values;
    container.memberTypes = declared ? declared.types : shape.valueTypes;
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
