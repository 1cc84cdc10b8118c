/**
 * Which patterns V8's own RegExp may match (runtime/server/backtracking.ts): every pattern of the documents but one
 * is proven linear, no pattern known to backtrack super-linearly is, and a proven pattern answers as RE2 does.
 */
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { nativeIsLinear } from '../../runtime/server/backtracking.ts';
import { documentPatterns } from '../support/document-patterns.ts';

const PROBES = [
  '',
  '0',
  '00',
  '7',
  '-5',
  '255',
  '256',
  '0255',
  '65535',
  '65536',
  '4294967295',
  '4294967296',
  '04294967295',
  '18446744073709551615',
  '18446744073709551616',
  '0'.repeat(20),
  '9'.repeat(21),
  '12.3456',
  '1.23456',
  '0x',
  '0x0',
  '0x00',
  '0x01',
  '0xabc',
  '0xABCD',
  `0x${'ab'.repeat(20)}`,
  `0x${'ab'.repeat(32)}`,
  '0x1',
  'hex',
  'HexNC',
  'hexc',
  'json',
  'JSON',
  'debug',
  'Verbo',
  'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
  '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
  'X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5',
  'avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5',
  'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN',
  'execution reverted: no',
  'vm execution error.',
  'line\nbreak',
  '\u{1f600}',
];

describe('patterns proven linear for V8', () => {
  const patterns = documentPatterns(['generated/openrpc', 'generated/c-chain/openrpc']);

  it('include every pattern of the documents but a capturing group repeated without bound', () => {
    expect(patterns.length).toBeGreaterThan(30);
    expect(patterns.filter((pattern) => !nativeIsLinear(pattern))).toEqual(['^0x([0-9a-f]{2})+$']);
  });

  it.each(patterns.filter(nativeIsLinear))('%s answers as RE2 does', (pattern) => {
    const native = new RegExp(pattern, 'u');
    const re2 = RE2JS.compile(RE2JS.translateRegExp(pattern));
    for (const probe of PROBES) expect(native.test(probe), JSON.stringify(probe)).toBe(re2.test(probe));
  });

  it.each([
    '^(a+)+$',
    '^(a|a)*$',
    '^(?:ab|a)*$',
    '^(?:[0-9a-f]{4})*$',
    '^(?:[0-9a-f]{8})*$',
    '^([0-9a-f]{2})*$',
    '^[0-9]+[0-9]+$',
    '^[a-z]*a$',
    '^.*.*x$',
    '^([a-z]+\\.)+[a-z]+$',
    '^(a?){30}a{30}$',
    '^a{1,100}a{1,100}$',
    '^x*?$',
    'a*b',
    '^a|b*c',
    '^(?=a)a+$',
    '^(a)\\1$',
    '^a$b',
    '^[a-',
  ])('leave %s to RE2', (pattern) => {
    expect(nativeIsLinear(pattern)).toBe(false);
  });

  it.each(['^[0-9]*$', '^\\d+\\D$', '^[^,]*,[^,]*$', '^(?:[0-9a-f]{3})*$', '^x.*'])('prove %s', (pattern) => {
    expect(nativeIsLinear(pattern)).toBe(true);
  });
});

describe('a proven pattern on text of 12 million characters', () => {
  // V8 keeps a backtracking-stack entry per repetition of a capture or of `{4}`, and overflows it on about 10 MB.
  it.each(['^0x(?:[0-9a-fA-F]{2})*$', '^0x[0-9a-fA-F]{8}(?:[0-9a-fA-F]{2})*$'])('%s answers', (pattern) => {
    expect(nativeIsLinear(pattern)).toBe(true);
    const native = new RegExp(pattern, 'u');
    expect(native.test(`0x${'ab'.repeat(6_000_000)}`)).toBe(true);
    expect(native.test(`0x${'ab'.repeat(6_000_000)}z`)).toBe(false);
  });
});

it('leaves a pattern nested deeper than the check reads to RE2', () => {
  expect(nativeIsLinear(`^${'('.repeat(20_000)}a${')'.repeat(20_000)}$`)).toBe(false);
});
