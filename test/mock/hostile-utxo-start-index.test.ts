/**
 * avax.getUTXOs' `startIndex` as coreth reads it: api.Index is two plain strings (api/common_args_responses.go:91), so
 * any strings unmarshal, and the handler parses them itself (graft/coreth/plugin/evm/atomic/vm/api.go:92-100): "couldn't
 * parse start index address %q: %w", then "couldn't parse start index utxo: %w".
 *
 * BUG (open): the mock refuses a malformed startIndex with the generic "couldn't unmarshal an argument…", because
 * the spec's UTXOIndex schema (openrpc/components/common.json: both fields required, Address and ID formats,
 * additionalProperties false) is checked as the decoder's. The fix goes in the spec (UTXOIndex's fields plain strings,
 * the parse errors as the method's errors; then `npm run generate`), which the X and P getUTXOs share.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const ADDRESS = 'C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
const getUTXOs = (startIndex: unknown) =>
  callRpc(`${node.url}/ext/bc/C/avax`, 'avax.getUTXOs', { addresses: [ADDRESS], sourceChain: 'X', startIndex });

describe('avax.getUTXOs startIndex', () => {
  it.fails('refuses a start address that does not parse in the handler’s words', async () => {
    expect((await getUTXOs({ address: '', utxo: '11111111111111111111111111111111LpoYY' })).error?.message).toBe(
      'couldn\'t parse start index address "": no separator found in address',
    );
  });

  it.fails('refuses a start UTXO ID that does not parse in the handler’s words', async () => {
    expect((await getUTXOs({ address: ADDRESS, utxo: 'zz' })).error?.message).toBe(
      "couldn't parse start index utxo: input string is smaller than the checksum size",
    );
  });

  it('takes the endIndex of an answer as the next startIndex', async () => {
    const first = await getUTXOs(undefined);
    expect((await getUTXOs(first.result.endIndex)).result).toMatchObject({ numFetched: '0' });
  });
});
