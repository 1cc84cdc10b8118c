/**
 * Go's quoting, one implementation in the runtime: strconv.Quote (goQuote) and encoding/json's quoteChar, which
 * quotes a byte of a refused body as the rune of that value, through strconv.Quote, between single quotes.
 */
import { describe, expect, it } from 'vitest';
import { goQuote } from '../../runtime/server/encode.ts';
import { quoteChar } from '../../runtime/server/json.ts';

describe("Go's quoting", () => {
  it.each([
    [0x27, "'\\''"],
    [0x22, `'"'`],
    [0x5c, "'\\\\'"],
    [0x00, "'\\x00'"],
    [0x07, "'\\a'"],
    [0x0a, "'\\n'"],
    [0x7f, "'\\x7f'"],
    [0x41, "'A'"],
    [0x80, "'\\u0080'"],
    [0xa0, "'\\u00a0'"],
    [0xad, "'\\u00ad'"],
    [0xe9, "'é'"],
  ])('quoteChar(%i) is %s', (byte, quoted) => {
    expect(quoteChar(byte)).toBe(quoted);
  });

  it('goQuote escapes as strconv.Quote does', () => {
    expect(goQuote('a"b\\c\n\u0000é\u{1F600}\u00ad')).toBe('"a\\"b\\\\c\\n\\x00é😀\\u00ad"');
  });
});
