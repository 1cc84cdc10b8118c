/**
 * getUTXOs' `startIndex` as the node reads it, on C (avax), X (avm) and P (platform): api.Index is two plain strings
 * (api/common_args_responses.go), so any strings unmarshal and a non-string fails decoding; the handler reads it only
 * when either is non-empty, and parses the address first, then the UTXO ID (vms/avm/service.go,
 * vms/platformvm/service.go, graft/coreth/plugin/evm/atomic/vm/api.go). The X- and P-Chain's address parser wraps its
 * failure in "couldn't parse address %q"; coreth's does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const EWOQ = 'local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const ZERO_ID = '11111111111111111111111111111111LpoYY';
const UNMARSHAL =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

const CHAINS = {
  C: { path: 'C/avax', method: 'avax.getUTXOs', extra: { sourceChain: 'X' }, wrap: false, other: 'X' },
  X: { path: 'X', method: 'avm.getUTXOs', extra: {}, wrap: true, other: 'P' },
  P: { path: 'P', method: 'platform.getUTXOs', extra: {}, wrap: true, other: 'X' },
} as const;

describe.each(Object.entries(CHAINS))('%s getUTXOs startIndex', (chain, { path, method, extra, wrap, other }) => {
  const address = `${chain}-${EWOQ}`;
  const call = (params: Record<string, unknown>) =>
    callRpc(`${node.url}/ext/bc/${path}`, method, { addresses: [address], ...extra, ...params });
  const getUTXOs = (startIndex: unknown, limit?: number) => call({ startIndex, ...(limit ? { limit } : {}) });
  const messageOf = async (startIndex: unknown) => (await getUTXOs(startIndex)).error?.message;
  const addressFailure = (given: string, why: string) =>
    `couldn't parse start index address ${JSON.stringify(given)}: ` +
    (wrap ? `couldn't parse address ${JSON.stringify(given)}: ` : '') +
    why;

  it('refuses a start address that does not parse, before reading the UTXO ID', async () => {
    expect(await messageOf({ address: '', utxo: 'zz' })).toBe(addressFailure('', 'no separator found in address'));
    expect(await messageOf({ utxo: ZERO_ID })).toBe(addressFailure('', 'no separator found in address'));
  });

  it('refuses a start address of another network or chain', async () => {
    const fuji = `${chain}-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t`;
    expect(await messageOf({ address: fuji, utxo: ZERO_ID })).toBe(
      addressFailure(fuji, 'expected hrp "local" but got "fuji"'),
    );
    const elsewhere = `${other}-${EWOQ}`;
    expect(await messageOf({ address: elsewhere, utxo: ZERO_ID })).toMatch(
      addressFailure(elsewhere, wrap ? 'mismatched chainIDs: expected "' : 'expected chainID to be "'),
    );
    expect(await messageOf({ address: `Q-${EWOQ}`, utxo: ZERO_ID })).toBe(
      addressFailure(`Q-${EWOQ}`, 'there is no ID with alias: Q'),
    );
  });

  it('refuses a start UTXO ID that does not parse, in ids.FromString’s words', async () => {
    const utxo = (text: string) => messageOf({ address, utxo: text });
    expect(await utxo('')).toBe("couldn't parse start index utxo: base58 decoding error: zero length string");
    expect(await utxo('zz')).toBe("couldn't parse start index utxo: input string is smaller than the checksum size");
    expect(await utxo('0x62fc')).toBe(
      "couldn't parse start index utxo: base58 decoding error: invalid base58 digit ('0')",
    );
    expect(await utxo('é')).toBe(
      "couldn't parse start index utxo: base58 decoding error: high-bit set on invalid digit",
    );
    // Five digits that make three bytes, five that make five (each leading '1' a zero byte).
    expect(await utxo('21111')).toBe("couldn't parse start index utxo: input string is smaller than the checksum size");
    expect(await utxo('11111')).toBe("couldn't parse start index utxo: invalid input checksum");
    // A cb58 short ID (20 bytes) is not an ID.
    expect(await utxo('6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV')).toBe(
      "couldn't parse start index utxo: invalid hash length: expected 32 bytes but got 20",
    );
  });

  it('reads no start index when both fields are empty, missing or null, and ignores unknown keys', async () => {
    const none = (await getUTXOs(undefined)).result;
    expect(none).toBeDefined();
    for (const startIndex of [{}, { address: '', utxo: '' }, { address: null, utxo: null }, { next: 1 }, null])
      expect((await getUTXOs(startIndex)).result).toEqual(none);
  });

  it('fails decoding a start index that is not an object of strings', async () => {
    for (const startIndex of [{ address: 1, utxo: ZERO_ID }, { address, utxo: true }, 'x', [address, ZERO_ID], 3])
      expect(await messageOf(startIndex)).toBe(UNMARSHAL);
  });

  it('matches field names case-insensitively, as Go’s decoder', async () => {
    expect(await messageOf({ ADDRESS: address, Utxo: 'zz' })).toBe(
      "couldn't parse start index utxo: input string is smaller than the checksum size",
    );
  });

  it('resumes above any start UTXO ID, one of the address’s or not, and after the start address', async () => {
    const all = (await getUTXOs(undefined)).result;
    const start = { address, utxo: ZERO_ID };
    // Every ID is above the zero ID: the whole listing again, though the zero ID is no UTXO.
    expect((await getUTXOs(start)).result.utxos).toEqual(all.utxos);
    const next = (await getUTXOs(all.endIndex)).result;
    expect(next).toMatchObject({ numFetched: '0', endIndex: all.endIndex });
    // A start address that sorts after every address asked for: nothing, and the end is the start.
    const last = `${chain}-local1llllllllllllllllllllllllllllllllnr3l6z`;
    const after = (await getUTXOs({ address: last, utxo: ZERO_ID })).result;
    expect(after).toMatchObject({ numFetched: '0', utxos: [], endIndex: { address: last, utxo: ZERO_ID } });
  });
});
