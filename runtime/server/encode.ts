/**
 * Output the way Go's encoding/json writes it, so answers match the node byte for byte: `<`, `>`, `&`, U+2028 and
 * U+2029 escaped inside strings, raw values (the echoed `id`, `params` in error data) compacted but otherwise
 * copied verbatim, even when they hold bytes that are not UTF-8.
 */
const HTML_UNSAFE_ALL = /[<>&\u2028\u2029]/g;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function escapeHtml(json: string): string {
  // Five native searches cost less than one regular expression over the whole text, which is the common case.
  const unsafe =
    json.indexOf('<') >= 0 ||
    json.indexOf('>') >= 0 ||
    json.indexOf('&') >= 0 ||
    json.indexOf('\u2028') >= 0 ||
    json.indexOf('\u2029') >= 0;
  return unsafe ? json.replace(HTML_UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

/**
 * JSON of a value as Go's json.Encoder writes it. `undefined` becomes null; a bigint, at any depth, is its decimal
 * digits, as Go writes a uint64 or int64 past 2^53 that a JavaScript number would round.
 */
export function goStringify(value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    // JSON.stringify refuses a bigint with a TypeError; only then is the slower walk with a replacer paid for.
    if (!(error instanceof TypeError)) throw error;
    json = JSON.stringify(value, bigintDigits);
  }
  return escapeHtml(json ?? 'null');
}

const { rawJSON } = JSON as unknown as { rawJSON(text: string): unknown };
const bigintDigits = (_key: string, value: unknown): unknown =>
  typeof value === 'bigint' ? rawJSON(value.toString()) : value;

/**
 * Characters JSON or Go escapes, and surrogates (JSON.stringify escapes lone ones): strings without them are written as
 * they are.
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;

/** A string as goStringify writes it (used by the compiled result writers). */
export function writeString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? goStringify(text) : `"${text}"`;
}

/**
 * A value the schema does not type, as goStringify writes it: undefined (write the whole result the generic way)
 * for objects, whose toJSON would see another key, and for what JSON.stringify leaves out.
 */
export function writeScalar(value: unknown): string | undefined {
  if (
    value === undefined ||
    typeof value === 'function' ||
    typeof value === 'symbol' ||
    (typeof value === 'object' && value !== null)
  )
    return undefined;
  return goStringify(value);
}

/**
 * A raw JSON value (already known to be valid) compacted as Go's json.Compact with HTML escaping does. Returns a
 * string when the bytes are UTF-8, the bytes themselves otherwise.
 */
export function compactRaw(bytes: Uint8Array, start: number, end: number): string | Uint8Array {
  if (end - start <= 32 && isPlain(bytes, start, end)) {
    let id = '';
    for (let i = start; i < end; i++) id += String.fromCharCode(bytes[i]!);
    return id;
  }
  const result = compactBytes(bytes, start, end);
  try {
    return strictUtf8.decode(result);
  } catch {
    return result.slice();
  }
}

/**
 * compactRaw's bytes, never decoded: for a value only copied into the answer (echoed params), which may be megabytes.
 * A view of `bytes` when nothing changes.
 */
export function compactBytes(bytes: Uint8Array, start: number, end: number): Uint8Array {
  // Measured first, then written into memory of that size: a list grown a byte at a time cost a microsecond a byte,
  // 16 s for a body of `<` at the size limit.
  const length = compactedLength(bytes, start, end);
  if (length < 0) return bytes.subarray(start, end);
  const out = new Uint8Array(length);
  let at = 0;
  let inString = false;
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c) {
        out[at++] = c;
        out[at++] = bytes[++i]!;
        continue;
      }
      if (c === 0x22) inString = false;
      else if (c === 0x3c || c === 0x3e || c === 0x26) {
        at = escapeAt(out, at, c);
        continue;
      } else if (c === 0xe2 && bytes[i + 1] === 0x80 && (bytes[i + 2] === 0xa8 || bytes[i + 2] === 0xa9)) {
        at = escapeAt(out, at, bytes[i + 2] === 0xa8 ? 0x2028 : 0x2029);
        i += 2;
        continue;
      }
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    else if (c === 0x22) inString = true;
    out[at++] = c;
  }
  return out;
}

/** The compacted length of `bytes` from `start` to `end`, or -1 when compacting changes nothing. */
function compactedLength(bytes: Uint8Array, start: number, end: number): number {
  let length = end - start;
  let changed = false;
  let inString = false;
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      else if (c === 0x3c || c === 0x3e || c === 0x26) {
        length += 5;
        changed = true;
      } else if (c === 0xe2 && bytes[i + 1] === 0x80 && (bytes[i + 2] === 0xa8 || bytes[i + 2] === 0xa9)) {
        length += 3;
        changed = true;
        i += 2;
      }
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      length--;
      changed = true;
    } else if (c === 0x22) inString = true;
  }
  return changed ? length : -1;
}

const HEX = '0123456789abcdef';

/** Writes `\uXXXX` for `code` at `at`; the position after it. */
function escapeAt(out: Uint8Array, at: number, code: number): number {
  out[at] = 0x5c;
  out[at + 1] = 0x75;
  out[at + 2] = HEX.charCodeAt(code >> 12);
  out[at + 3] = HEX.charCodeAt((code >> 8) & 0xf);
  out[at + 4] = HEX.charCodeAt((code >> 4) & 0xf);
  out[at + 5] = HEX.charCodeAt(code & 0xf);
  return at + 6;
}

/** Printable ASCII that needs neither compaction nor escaping: the usual `1` or `"abc"` id. */
function isPlain(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (c <= 0x20 || c >= 0x7f || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x5c) return false;
  }
  return true;
}

/** Go's strconv.Quote (`%q`), used by the node's "can't find method" messages. */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === ' ' || (code >= 0x21 && code < 0x7f) || (code >= 0xa1 && code !== 0xad && isPrintable(ch)))
      out += ch;
    else if (SHORT_ESCAPES[code] !== undefined) out += SHORT_ESCAPES[code];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

const SHORT_ESCAPES: Record<number, string> = {
  7: '\\a',
  8: '\\b',
  12: '\\f',
  10: '\\n',
  13: '\\r',
  9: '\\t',
  11: '\\v',
};
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

function isPrintable(ch: string): boolean {
  return PRINTABLE.test(ch);
}

/**
 * Concatenates body parts; stays a string unless a part carries bytes (not UTF-8, or a result given as bytes), which
 * are copied once, into memory from `allocate` where it lends some.
 */
export function joinParts(
  parts: Array<string | Uint8Array>,
  allocate?: (size: number) => Uint8Array | undefined,
): string | Uint8Array {
  if (parts.every((part) => typeof part === 'string')) return (parts as string[]).join('');
  const encoder = new TextEncoder();
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  const size = chunks.reduce((n, chunk) => n + chunk.length, 0);
  return concatBytes(chunks, size, allocate?.(size));
}

/**
 * The chunks as one array, in `into` where given (at least `size` long); `size`, their total length, where the caller
 * already counted it.
 */
export function concatBytes(
  chunks: Uint8Array[],
  size: number = chunks.reduce((n, chunk) => n + chunk.length, 0),
  into?: Uint8Array,
): Uint8Array {
  const out = into ?? new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
