/** The format checks the generated validators call (runtime/server/formats.ts), remembered verdicts included. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../generators/pipeline.ts';
import { methodValidators } from '../../runtime/server/ajv.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32, utils as scure } from '@scure/base';
import {
  bech32Decode,
  bech32Encode,
  cb58Decode,
  cb58Encode,
  avalancheFormats,
  formats,
  hexEncode,
  remembered,
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
  it.each(Object.keys(avalancheFormats))('gives the same verdict on %s from memory as when first computed', (name) => {
    const check = avalancheFormats[name as keyof typeof avalancheFormats];
    const remembered = formats[name as keyof typeof formats];
    fc.assert(
      fc.property(
        fc.oneof(candidates, mutated),
        (text) => remembered(text) === check(text) && remembered(text) === check(text),
      ),
      { numRuns: 500 },
    );
  });

  it('remembers each verdict, the last one and the empty string included, checking each string once', () => {
    const checked: string[] = [];
    const short = remembered((text) => {
      checked.push(text);
      return text.length < 3;
    });
    const calls = ['', 'abcd', 'abcd', '', 'ab', 'abcd', 'ab', 'x'.repeat(300), 'x'.repeat(300)];
    expect(calls.map(short)).toEqual([true, false, false, true, true, false, true, false, false]);
    // A string over 256 characters is never remembered.
    expect(checked).toEqual(['', 'abcd', 'ab', 'x'.repeat(300), 'x'.repeat(300)]);
  });

  it('decodes cb58 and bech32 as @scure/base does (base 58 with the last 4 bytes of SHA-256, BIP 173)', () => {
    // cb58 is base 58 over the payload and its SHA-256's last 4 bytes (not Bitcoin's double hash: no base58check).
    const CB58 = scure.chain(
      scure.checksum(4, (data) => sha256(data).slice(-4)),
      base58,
    );
    const cb58 = (text: string) => {
      try {
        return hex(CB58.decode(text));
      } catch {
        return undefined;
      }
    };
    // The runtime's format takes addresses as the node and avalanchejs write them: lower case, of any length, with
    // no stray padding bits.
    const bech32Payload = (text: string) => {
      if (text !== text.toLowerCase()) return undefined;
      const decoded = bech32.decodeUnsafe(text, false);
      const payload = decoded && bech32.fromWordsUnsafe(decoded.words);
      return decoded && payload ? { hrp: decoded.prefix, payload: hex(payload) } : undefined;
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
          const words = bech32Decode(address);
          expect(words && { hrp: words.hrp, payload: hex(words.payload) }).toEqual(bech32Payload(address));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('checks date-time as RFC 3339 wants it (ajv-formats, as the server registers it)', () => {
    const validator = methodValidators(
      {},
      { schemas: { when: { params: { type: 'string', format: 'date-time' }, result: {} } }, components: {} },
    );
    const check = validator('when', 'params');
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
    visit(loadModel('openrpc').endpoints.map((e) => e.published));
    for (const name of used) expect(name in avalancheFormats || name === 'date-time', name).toBe(true);
  });
});
