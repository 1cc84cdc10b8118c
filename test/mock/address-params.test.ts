/**
 * Params the node's argument structs hold as plain Go strings and parse in the handler, so a value that is no address
 * or ID gets the handler's words, never the decoder's `couldn't unmarshal an argument`: addresses (api.JSONAddress,
 * api.JSONAddresses, GetUTXOsArgs `[]string`, parsed by avax.ParseServiceAddress: vms/components/avax/addresses.go)
 * and admin.getChainAliases's `chain` (ids.FromString in api/admin/service.go), AvalancheGo v1.14.2. A bare cb58 short
 * ID is an address to ParseServiceAddress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const LOCAL = 'local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
/** The same address's 20 bytes as a cb58 short ID. */
const SHORT_ID = '6Y3kysjF9jnHnYkdS9yGAuoHyae2eNmeV';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const message = async (path: string, method: string, params: unknown) =>
  (await callRpc(`${node.url}${path}`, method, params)).error?.message;
const parsing = (address: string, reason: string) => `couldn't parse address ${JSON.stringify(address)}: ${reason}`;

describe('addresses that are no address, as avax.ParseServiceAddress refuses them', () => {
  it.each([
    ['junk', 'no separator found in address'],
    ['X-nope', 'invalid bech32 string length 4'],
    ['X-Local1abcdefgh', 'string not all lowercase or all uppercase'],
    ['X-abcdefgh', 'invalid separator index -1'],
    [
      'X-local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq',
      'invalid checksum (expected (bech32=ljssag, bech32m=2wquc2), got qqqqqq)',
    ],
    [`Q-${LOCAL}`, 'there is no ID with alias: Q'],
  ])('avm.getBalance of %j: %s', async (address, reason) => {
    expect(await message('/ext/bc/X', 'avm.getBalance', { address, assetID: 'AVAX' })).toBe(
      `problem parsing address '${address}': ${parsing(address, reason)}`,
    );
  });

  it('platform.getBalance, platform.getStake and avm.getUTXOs answer in their own words', async () => {
    expect(await message('/ext/bc/P', 'platform.getBalance', { addresses: ['P-local1xyz'] })).toBe(
      parsing('P-local1xyz', 'invalid separator index 5'),
    );
    expect(await message('/ext/bc/P', 'platform.getStake', { addresses: ['junk'] })).toBe(
      parsing('junk', 'no separator found in address'),
    );
    expect(await message('/ext/bc/X', 'avm.getUTXOs', { addresses: [`P-${LOCAL}`] })).toMatch(
      /^couldn't parse address "P-local1[a-z0-9]+": mismatched chainIDs: expected "\w+" but got "\w+"$/,
    );
  });

  it('takes a bare cb58 short ID wherever it takes an address', async () => {
    const byShortID = await callRpc(`${node.url}/ext/bc/P`, 'platform.getBalance', { addresses: [SHORT_ID] });
    const byAddress = await callRpc(`${node.url}/ext/bc/P`, 'platform.getBalance', { addresses: [`P-${LOCAL}`] });
    expect(byShortID.error).toBeUndefined();
    expect(byShortID.result).toEqual(byAddress.result);
  });
});

describe("admin.getChainAliases's chain, which ids.FromString parses", () => {
  it.each([
    ['X', 'input string is smaller than the checksum size'],
    ['', 'base58 decoding error: zero length string'],
  ])('%j: %s', async (chain, text) => {
    expect(await message('/ext/admin', 'admin.getChainAliases', { chain })).toBe(text);
  });
});
