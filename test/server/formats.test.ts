/** The format checks the generated validators call (runtime/server/formats.ts), remembered verdicts included. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../generators/pipeline.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import {
  bech32Decode,
  bech32Encode,
  cb58Decode,
  cb58Encode,
  formatChecks,
  formats,
  hexEncode,
} from '../../runtime/server/formats.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const candidates = fc.oneof(
  bytes(0, 40).map((b) => cb58Encode(b)),
  bytes(18, 22).map((b) => `NodeID-${cb58Encode(b)}`),
  bytes(0, 40).map((b) => hexEncode(b)),
  bytes(0, 40).map((b) => `0x${Buffer.from(b).toString('hex')}`),
  fc.tuple(fc.constantFrom('avax', 'fuji', 'local', 'custom'), bytes(18, 22)).map(([hrp, b]) => bech32Encode(hrp, b)),
  fc
    .tuple(fc.constantFrom('X', 'P', 'C'), fc.constantFrom('avax', 'fuji'), bytes(18, 22))
    .map(([chain, hrp, b]) => `${chain}-${bech32Encode(hrp, b)}`),
  fc.string(),
  fc.string().map((s) => `X-${s}`),
);
/** One character changed: checksums must catch it. */
const mutated = fc
  .tuple(candidates, fc.nat(), fc.constantFrom(...'1qpzry9x8A0fZ-'))
  .map(([text, at, ch]) =>
    text.length === 0 ? text : text.slice(0, at % text.length) + ch + text.slice((at % text.length) + 1),
  );

describe('server runtime formats', () => {
  it.each(Object.keys(formatChecks))('gives the same verdict on %s from memory as when first computed', (name) => {
    const check = formatChecks[name]!;
    const remembered = formats[name]!.validate;
    fc.assert(
      fc.property(
        fc.oneof(candidates, mutated),
        (text) => remembered(text) === check(text) && remembered(text) === check(text),
      ),
      { numRuns: 500 },
    );
  });

  it('decodes cb58 and bech32 as the textbook algorithms do (BigInt base 58, BIP 173 checksum)', () => {
    const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
    const cb58 = (text: string) => {
      let n = 0n;
      for (const char of text) {
        const digit = BASE58.indexOf(char);
        if (digit < 0) return undefined;
        n = n * 58n + BigInt(digit);
      }
      const body: number[] = [];
      for (; n > 0n; n >>= 8n) body.unshift(Number(n & 0xffn));
      const raw = Uint8Array.from([
        ...new Array<number>(text.length - text.replace(/^1+/, '').length).fill(0),
        ...body,
      ]);
      if (raw.length < 4) return undefined;
      const payload = raw.subarray(0, -4);
      return hex(sha256(payload).subarray(28)) === hex(raw.subarray(-4)) ? hex(payload) : undefined;
    };
    const bech32 = (text: string) => {
      if (text !== text.toLowerCase()) return undefined;
      const sep = text.lastIndexOf('1');
      if (sep < 1 || text.length - sep < 7) return undefined;
      const hrp = [...text.slice(0, sep)].map((c) => c.charCodeAt(0));
      const values = [...text.slice(sep + 1)].map((c) => BECH32.indexOf(c));
      if (values.some((v) => v < 0)) return undefined;
      let chk = 1;
      for (const v of [...hrp.map((c) => c >> 5), 0, ...hrp.map((c) => c & 31), ...values]) {
        const top = chk >>> 25;
        chk = ((chk & 0x1ffffff) << 5) ^ v;
        for (const [i, g] of [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3].entries())
          if ((top >>> i) & 1) chk ^= g;
      }
      return chk >>> 0 === 1 ? text.slice(0, sep) : undefined;
    };
    fc.assert(
      fc.property(
        fc.oneof(
          candidates,
          mutated,
          bytes(0, 40).map((b) => cb58Encode(b).replace(/^/, '11')),
        ),
        (text) => {
          const decoded = cb58Decode(text);
          expect(decoded && hex(decoded)).toBe(cb58(text));
          const address = text.slice(text.indexOf('-') + 1);
          if (bech32(address) === undefined) expect(bech32Decode(address)).toBeUndefined();
          else expect(bech32Decode(address)?.hrp).toBe(bech32(address));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('checks date-time as RFC 3339 wants it', () => {
    const check = formatChecks['date-time']!;
    for (const ok of [
      '2024-06-01T00:00:00Z',
      '2020-09-13T12:26:40.123456789Z',
      '2020-02-29T23:59:59+05:30',
      '2020-09-13t12:26:40z',
    ])
      expect(check(ok), ok).toBe(true);
    for (const bad of [
      '2024-06-01',
      '2021-02-29T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '2024-06-01T24:00:00Z',
      '2024-06-01T00:00:00',
      'x',
    ])
      expect(check(bad), bad).toBe(false);
  });

  it('implements every format the spec uses', () => {
    const used = new Set<string>();
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value))
          key === 'format' && typeof child === 'string' ? used.add(child) : visit(child);
      }
    };
    visit(loadModel('openrpc').endpoints.map((e) => e.document));
    for (const name of used) expect(formatChecks[name], name).toBeDefined();
  });
});
