/**
 * Strings out of JSON bytes the way Go's encoding/json reads them: escapes decoded, a lone surrogate escape and each
 * byte that does not start valid UTF-8 replaced by U+FFFD (one per byte, which is where Go and TextDecoder differ).
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });
const ascii = new TextDecoder('utf-8');

/** Bytes known to be ASCII as a string: short ones char by char, longer ones through the native decoder. */
export function asciiSlice(bytes: Uint8Array, start: number, end: number): string {
  if (end - start > 24) return ascii.decode(bytes.subarray(start, end));
  let out = '';
  for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i]!);
  return out;
}

/** Go's unquote: escapes decoded, lone surrogates and invalid UTF-8 bytes each become U+FFFD. */
export function unquote(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  let i = start;
  while (i < end) {
    const c = bytes[i]!;
    if (c === 0x5c) {
      const e = bytes[i + 1]!;
      if (e !== 0x75) {
        out += ({ 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' } as Record<number, string>)[e] ?? String.fromCharCode(e);
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

/** UTF-8 with Go's repair rule: each byte that does not start a valid sequence becomes one U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    let out = '';
    let i = 0;
    while (i < bytes.length) {
      const [rune, size] = decodeRune(bytes, i);
      out += String.fromCodePoint(rune);
      i += size;
    }
    return out;
  }
}

function decodeRune(b: Uint8Array, i: number): [number, number] {
  const c0 = b[i]!;
  if (c0 < 0x80) return [c0, 1];
  const cont = (k: number) => ((b[i + k] ?? 0) & 0xc0) === 0x80;
  if (c0 >= 0xc2 && c0 <= 0xdf && cont(1)) return [((c0 & 0x1f) << 6) | (b[i + 1]! & 0x3f), 2];
  if (c0 >= 0xe0 && c0 <= 0xef && cont(1) && cont(2)) {
    const r = ((c0 & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
    if (r >= 0x800 && (r < 0xd800 || r > 0xdfff)) return [r, 3];
  }
  if (c0 >= 0xf0 && c0 <= 0xf4 && cont(1) && cont(2) && cont(3)) {
    const r = ((c0 & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f);
    if (r >= 0x10000 && r <= 0x10ffff) return [r, 4];
  }
  return [0xfffd, 1];
}
