/** The server package's own format checks (it cannot import the toolkit) agree with the toolkit's. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatChecks, sha256 } from '../../generated/server/dist/runtime/formats.js';
import { avalancheFormats, bech32Encode, cb58Encode, hexEncode } from '../../generators/formats.ts';
import { createHash } from 'node:crypto';
import { RUNTIME_FORMATS } from '../../generators/server/validators.ts';
import { loadModel } from '../../generators/pipeline.ts';

const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const candidates = fc.oneof(
  bytes(0, 40).map((b) => cb58Encode(b)),
  bytes(18, 22).map((b) => `NodeID-${cb58Encode(b)}`),
  bytes(0, 40).map((b) => hexEncode(b)),
  bytes(0, 40).map((b) => `0x${Buffer.from(b).toString('hex')}`),
  fc.tuple(fc.constantFrom('avax', 'fuji', 'local', 'custom'), bytes(18, 22)).map(([hrp, b]) => bech32Encode(hrp, b)),
  fc.tuple(fc.constantFrom('X', 'P', 'C'), fc.constantFrom('avax', 'fuji'), bytes(18, 22)).map(([chain, hrp, b]) => `${chain}-${bech32Encode(hrp, b)}`),
  fc.string(),
  fc.string().map((s) => `X-${s}`),
);
/** One character changed: checksums must catch it. */
const mutated = fc.tuple(candidates, fc.nat(), fc.constantFrom(...'1qpzry9x8A0fZ-')).map(([text, at, ch]) => (text.length === 0 ? text : text.slice(0, at % text.length) + ch + text.slice((at % text.length) + 1)));

describe('server runtime formats', () => {
  it('computes SHA-256 as node:crypto does', () => {
    fc.assert(fc.property(bytes(0, 300), (data) => Buffer.from(sha256(data)).equals(createHash('sha256').update(data).digest())), { numRuns: 300 });
  });

  it.each(Object.keys(avalancheFormats) as Array<keyof typeof avalancheFormats>)('agrees with the toolkit on %s', (name) => {
    const check = formatChecks[name]!;
    expect(check).toBeDefined();
    fc.assert(fc.property(fc.oneof(candidates, mutated), (text) => check(text) === avalancheFormats[name](text)), { numRuns: 1500 });
  });

  it('checks date-time as RFC 3339 wants it', () => {
    const check = formatChecks['date-time']!;
    for (const ok of ['2024-06-01T00:00:00Z', '2020-09-13T12:26:40.123456789Z', '2020-02-29T23:59:59+05:30', '2020-09-13t12:26:40z']) expect(check(ok), ok).toBe(true);
    for (const bad of ['2024-06-01', '2021-02-29T00:00:00Z', '2024-13-01T00:00:00Z', '2024-06-01T24:00:00Z', '2024-06-01T00:00:00', 'x']) expect(check(bad), bad).toBe(false);
  });

  it('implements every format the spec uses', () => {
    const used = new Set<string>();
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) (key === 'format' && typeof child === 'string' ? used.add(child) : visit(child));
      }
    };
    visit(loadModel('openrpc').endpoints.map((e) => e.document));
    for (const name of used) expect(RUNTIME_FORMATS, name).toContain(name);
    for (const name of RUNTIME_FORMATS) expect(formatChecks[name], name).toBeDefined();
  });
});
