/**
 * An address whose bech32 checksum is wrong (a changed last character) fails every method that parses addresses with
 * the node's words: btcutil's bech32.Decode says `invalid checksum (expected (bech32=…, bech32m=…), got …)`, wrapped by
 * avax.ParseServiceAddress (vms/components/avax/addresses.go:129) and, for avm.getBalance and avm.getAllBalances, by
 * vms/avm/service.go:463/539. The mock answers those words, and the spec documents them, so the proxy and conform do
 * not log the node's answer as an undocumented error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

// A funded-looking local address (the checksum `00z96u` is right) and the same with its last character changed.
const PAYLOAD = 'local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96';
const GOOD = `${PAYLOAD}u`;
const BAD = `${PAYLOAD}a`;
// What btcutil v1.1.3's ErrInvalidChecksum.Error() prints for BAD: both checksums the data would have, and the one given.
const DECODER = 'invalid checksum (expected (bech32=00z96u, bech32m=6njfl7), got 00z96a)';
const parse = (address: string) => `couldn't parse address "${address}": ${DECODER}`;

let node: RunningMockNode;
let validator: SpecValidator;
beforeAll(async () => {
  node = await startMockNode({ port: 0, host: '127.0.0.1' });
  validator = new SpecValidator(loadSpecModel());
});
afterAll(() => node?.close());

const cases: Array<[string, string, Record<string, unknown>, string]> = [
  [
    '/ext/bc/X',
    'avm.getBalance',
    { address: `X-${BAD}`, assetID: 'AVAX' },
    `problem parsing address 'X-${BAD}': ${parse(`X-${BAD}`)}`,
  ],
  [
    '/ext/bc/X',
    'avm.getAllBalances',
    { address: `X-${BAD}` },
    `problem parsing address 'X-${BAD}': ${parse(`X-${BAD}`)}`,
  ],
  ['/ext/bc/X', 'avm.getUTXOs', { addresses: [`X-${BAD}`] }, parse(`X-${BAD}`)],
  [
    '/ext/bc/X',
    'avm.getUTXOs',
    { addresses: [`X-${GOOD}`], startIndex: { address: `X-${BAD}`, utxo: '11111111111111111111111111111111LpoYY' } },
    `couldn't parse start index address "X-${BAD}": ${parse(`X-${BAD}`)}`,
  ],
  ['/ext/bc/P', 'platform.getBalance', { addresses: [`P-${BAD}`] }, parse(`P-${BAD}`)],
  ['/ext/bc/P', 'platform.getStake', { addresses: [`P-${BAD}`] }, parse(`P-${BAD}`)],
  ['/ext/bc/P', 'platform.getUTXOs', { addresses: [`P-${BAD}`] }, parse(`P-${BAD}`)],
  [
    '/ext/bc/P',
    'platform.getUTXOs',
    { addresses: [`P-${GOOD}`], startIndex: { address: `P-${BAD}`, utxo: '11111111111111111111111111111111LpoYY' } },
    `couldn't parse start index address "P-${BAD}": ${parse(`P-${BAD}`)}`,
  ],
  // coreth's ParseServiceAddress adds no words of its own (plugin/evm/atomic/vm/formatting.go, api.go:85).
  ['/ext/bc/C/avax', 'avax.getUTXOs', { addresses: [`C-${BAD}`], sourceChain: 'X' }, parse(`C-${BAD}`)],
  [
    '/ext/bc/C/avax',
    'avax.getUTXOs',
    {
      addresses: [`C-${GOOD}`],
      sourceChain: 'X',
      startIndex: { address: `C-${BAD}`, utxo: '11111111111111111111111111111111LpoYY' },
    },
    `couldn't parse start index address "C-${BAD}": ${DECODER}`,
  ],
];

describe('an address with a bad bech32 checksum', () => {
  it.each(cases)('%s %s: the node words, documented by the spec', async (path, method, params, message) => {
    const answer = await callRpc(node.url + path, method, params);
    expect(answer.error).toEqual({ code: -32000, message, data: null });
    expect(validator.checkError(method, answer.error)).toEqual([]);
  });

  it('is documented as a pattern: another address and its checksums match too', () => {
    const other = 'X-local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq';
    const message =
      `problem parsing address '${other}': couldn't parse address "${other}": ` +
      'invalid checksum (expected (bech32=7p4v2f, bech32m=kq8ytd), got qqqqqq)';
    expect(validator.checkError('avm.getBalance', { code: -32000, message })).toEqual([]);
    // Only the checksums vary: other words after them are not this error.
    expect(validator.checkError('avm.getBalance', { code: -32000, message: `${message} and more` })).not.toEqual([]);
  });
});
