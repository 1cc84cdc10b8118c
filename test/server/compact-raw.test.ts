/**
 * compactRaw, Go's json.Compact with HTML escaping, which the node applies to the raw params and id it echoes (json2's
 * json.RawMessage, written by an Encoder that escapes HTML). Hostile sizes included: a body of `<` at the size limit
 * grows sixfold, and once took a microsecond a byte (bench/hostile.bench.ts has the figure).
 */
import { describe, expect, it } from 'vitest';
import { compactRaw } from '../../runtime/server/encode.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const compact = (text: string) => {
  const raw = bytes(text);
  return compactRaw(raw, 0, raw.length);
};

describe('compactRaw', () => {
  it('drops whitespace outside strings only, and escapes < > & U+2028 U+2029 in them', () => {
    expect(compact(' { "a" : [ 1 ,\t2 ]\r\n, "b c" : "x y" } ')).toBe('{"a":[1,2],"b c":"x y"}');
    expect(compact('{"h":"<a href=\\"&\\">\u2028\u2029</a>"}')).toBe(
      '{"h":"\\u003ca href=\\"\\u0026\\"\\u003e\\u2028\\u2029\\u003c/a\\u003e"}',
    );
    expect(compact('"\\\\" ')).toBe('"\\\\"');
    expect(compact('"\\"<" ')).toBe('"\\"\\u003c"');
    expect(compact('"\u2027\u202a"')).toBe('"\u2027\u202a"');
  });

  it('keeps bytes that are not UTF-8 as bytes', () => {
    const raw = new Uint8Array([0x22, 0xff, 0x3c, 0x22, 0x20]);
    expect(compactRaw(raw, 0, raw.length)).toEqual(new Uint8Array([0x22, 0xff, ...bytes('\\u003c'), 0x22]));
  });

  it('compacts megabytes of escapes and of whitespace whole', () => {
    expect(compact(`"${'<&>'.repeat(1_000_000)}"`)).toBe(`"${'\\u003c\\u0026\\u003e'.repeat(1_000_000)}"`);
    expect(compact(`[${' 1 ,'.repeat(1_000_000)}1]`)).toBe(`[${'1,'.repeat(1_000_000)}1]`);
  });
});
