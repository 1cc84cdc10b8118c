/**
 * Strings out of JSON bytes the way Go's encoding/json reads them: escapes decoded, a lone surrogate escape and each
 * byte that does not start valid UTF-8 replaced by U+FFFD (one per byte, which is where Go and TextDecoder differ).
 */

// ignoreBOM: a string's text that starts with U+FEFF keeps it, as Go's does.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ascii = new TextDecoder('utf-8');

/** Bytes known to be ASCII as a string: short ones char by char, longer ones through the native decoder. */
export function asciiSlice(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > 24) return ascii.decode(bytes.subarray(start, end));
  let out = '';
  for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i]!);
  return out;
}

/** The one-letter escapes of a JSON string other than `\\uXXXX`, by the letter's byte (`n` is a line feed). */
const ESCAPES = new Map<number, string>([
  [0x62, '\b'],
  [0x66, '\f'],
  [0x6e, '\n'],
  [0x72, '\r'],
  [0x74, '\t'],
]);

/** Go's unquote: escapes decoded, lone surrogates and invalid UTF-8 bytes each become U+FFFD. */
export function unquote(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  let i = start;
  while (i < end) {
    const c = bytes[i]!;
    if (c === 0x5c) {
      const e = bytes[i + 1]!;
      if (e !== 0x75) {
        out += ESCAPES.get(e) ?? String.fromCharCode(e);
        i += 2;
        continue;
      }
      const unit = parseInt(asciiSlice(bytes, i + 2, i + 6), 16);
      i += 6;
      if (unit >= 0xd800 && unit < 0xdc00 && bytes[i] === 0x5c && bytes[i + 1] === 0x75 && i + 6 <= end) {
        const low = parseInt(asciiSlice(bytes, i + 2, i + 6), 16);
        if (low >= 0xdc00 && low < 0xe000) {
          out += String.fromCharCode(unit, low);
          i += 6;
          continue;
        }
      }
      out += unit >= 0xd800 && unit < 0xe000 ? '\ufffd' : String.fromCharCode(unit);
      continue;
    }
    let j = i;
    while (j < end && bytes[j] !== 0x5c) j++;
    out += decodeUtf8(bytes.subarray(i, j));
    i = j;
  }
  return out;
}

/**
 * UTF-8 with Go's repair rule: each byte that does not start a valid sequence becomes one U+FFFD. The platform's
 * decoder does the work: valid input in one call, otherwise each valid span in one call and each run of bad bytes as
 * one repeat (TextDecoder's own replacement folds a truncated sequence into one U+FFFD where Go gives one per byte, so
 * it is not used on them). Linear in the input, and a string per span, not per byte.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    const parts: string[] = [];
    let start = 0;
    let i = 0;
    while (i < bytes.length) {
      if (bytes[i]! < 0x80) {
        i++;
        continue;
      }
      const size = runeSize(bytes, i);
      if (size > 0) {
        i += size;
        continue;
      }
      if (i > start) parts.push(validSpan(bytes, start, i));
      let j = i + 1;
      while (j < bytes.length && bytes[j]! >= 0x80 && runeSize(bytes, j) === 0) j++;
      parts.push('\ufffd'.repeat(j - i));
      i = start = j;
    }
    if (start < bytes.length) parts.push(validSpan(bytes, start, bytes.length));
    return parts.join('');
  }
}

/** Valid UTF-8 as a string: long spans through the native decoder, short ones (a call costs more) rune by rune. */
function validSpan(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > 24) return ascii.decode(bytes.subarray(start, end));
  let out = '';
  for (let i = start; i < end; ) {
    const [rune, size] = decodeRune(bytes, i);
    out += String.fromCodePoint(rune);
    i += size;
  }
  return out;
}

/**
 * The length of the valid UTF-8 sequence at `i` (Go's rules: no overlongs, surrogates or runes past U+10FFFF), or 0.
 */
function runeSize(b: Uint8Array, i: number): number {
  const [rune, size] = decodeRune(b, i);
  return rune === 0xfffd && size === 1 ? 0 : size;
}

/** A continuation byte (module level, not a closure per call: this runs once per byte of bad input). */
function cont(b: Uint8Array, j: number): boolean {
  return ((b[j] ?? 0) & 0xc0) === 0x80;
}

function decodeRune(b: Uint8Array, i: number): [number, number] {
  const c0 = b[i]!;
  if (c0 < 0x80) return [c0, 1];
  if (c0 >= 0xc2 && c0 <= 0xdf && cont(b, i + 1)) return [((c0 & 0x1f) << 6) | (b[i + 1]! & 0x3f), 2];
  if (c0 >= 0xe0 && c0 <= 0xef && cont(b, i + 1) && cont(b, i + 2)) {
    const r = ((c0 & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
    if (r >= 0x800 && (r < 0xd800 || r > 0xdfff)) return [r, 3];
  }
  if (c0 >= 0xf0 && c0 <= 0xf4 && cont(b, i + 1) && cont(b, i + 2) && cont(b, i + 3)) {
    const r = ((c0 & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f);
    if (r >= 0x10000 && r <= 0x10ffff) return [r, 4];
  }
  return [0xfffd, 1];
}
