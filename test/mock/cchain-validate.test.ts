/**
 * `/ext/bc/C/rpc` checks params against the C-Chain document and refuses them with geth's texts (rpc/json.go's
 * parsePositionalArguments, common/hexutil's decoders), over real HTTP; what a node takes still reaches the engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const EWOQ_C = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const ZERO_HASH = `0x${'00'.repeat(32)}`;

async function call(
  method: string,
  params?: unknown,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  // Not callRpc: a call here may leave its params out.
  const response = await send(`${node.url}/ext/bc/C/rpc`, { body: rpc(method, params, 7) });
  return JSON.parse(response.text) as { result?: unknown; error?: { code: number; message: string } };
}

const refusal = (message: string) => ({ error: { code: -32602, message } });

describe("params geth's decoder refuses", () => {
  it.each([
    ['an object for positional params', 'eth_getBalance', { address: EWOQ_C }, 'non-array args'],
    ['a string for params', 'eth_blockNumber', 'latest', 'non-array args'],
    ['params to a method that takes none', 'eth_blockNumber', [1], 'too many arguments, want at most 0'],
    ["params to coreth's own method", 'eth_baseFee', ['latest'], 'too many arguments, want at most 0'],
    ['one too many', 'eth_getBalance', [EWOQ_C, 'latest', true], 'too many arguments, want at most 2'],
    ['a missing address', 'eth_getBalance', [], 'missing value for required argument 0'],
    ['a missing fullTx flag', 'eth_getBlockByNumber', ['latest'], 'missing value for required argument 1'],
    [
      'an address without 0x',
      'eth_getBalance',
      [EWOQ_C.slice(2), 'latest'],
      'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address',
    ],
    [
      'a short address',
      'eth_getCode',
      ['0x1234', 'latest'],
      'invalid argument 0: hex string has length 4, want 40 for common.Address',
    ],
    [
      'a number for an address',
      'eth_getTransactionCount',
      [12, 'latest'],
      'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address',
    ],
    [
      'a hash of odd length',
      'eth_getTransactionByHash',
      ['0xabc'],
      'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Hash',
    ],
    [
      'a block number without 0x',
      'eth_getBlockByNumber',
      ['12', false],
      'invalid argument 0: hex string without 0x prefix',
    ],
    [
      'a block number with leading zeros',
      'eth_getBlockByNumber',
      ['0x01', false],
      'invalid argument 0: hex number with leading zero digits',
    ],
    ['an unknown block tag', 'eth_getBalance', [EWOQ_C, 'newest'], 'invalid argument 1: hex string without 0x prefix'],
    [
      'a string for the fullTx flag',
      'eth_getBlockByHash',
      [ZERO_HASH, 'yes'],
      'invalid argument 1: json: cannot unmarshal string into Go value of type bool',
    ],
    [
      'raw transaction bytes with a bad digit',
      'eth_sendRawTransaction',
      ['0xzz'],
      'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type hexutil.Bytes',
    ],
    [
      'a transaction index with leading zeros',
      'eth_getTransactionByBlockNumberAndIndex',
      ['latest', '0x00'],
      'invalid argument 1: json: cannot unmarshal hex number with leading zero digits into Go value of type hexutil.Uint',
    ],
    [
      'a block given by both number and hash',
      'eth_getBalance',
      [EWOQ_C, { blockNumber: '0x0', blockHash: ZERO_HASH }],
      'invalid argument 1: cannot specify both BlockHash and BlockNumber, choose one or the other',
    ],
  ])('%s', async (_, method, params, message) => {
    expect(await call(method, params)).toMatchObject(refusal(message));
  });
});

describe('params a node takes reach the engine', () => {
  it('missing optional trailing params and null params', async () => {
    expect((await call('eth_blockNumber')).result).toMatch(/^0x/);
    expect((await call('eth_blockNumber', null)).result).toMatch(/^0x/);
    expect((await call('eth_chainId', [])).result).toBe('0xa868');
  });

  it('upper-case hex an address and a block number may have, and the block as an object', async () => {
    const balance = (await call('eth_getBalance', [EWOQ_C.toUpperCase().replace('0X', '0x'), '0x0'])).result;
    expect(BigInt(balance as string)).toBe(50_000_000n * 10n ** 18n);
    expect((await call('eth_getBalance', [EWOQ_C, { blockNumber: '0x0' }])).result).toBe(balance);
  });

  it('an invalid transaction that decodes is the engine to judge, not refused as params', async () => {
    const answer = await call('eth_sendRawTransaction', ['0x00']);
    // EDR's own decoding error, not geth's decoder text: the bytes are valid hex.
    expect(answer.error?.message).toBeTruthy();
    expect(answer.error?.message).not.toMatch(/^invalid argument 0/);
  });

  it('each call of a batch is judged on its own', async () => {
    const response = await send(`${node.url}/ext/bc/C/rpc`, {
      body: `[${rpc('eth_chainId', [], 1)},${rpc('eth_getBalance', ['0x12'], 2)}]`,
    });
    const [ok, refused] = JSON.parse(response.text) as Array<{ result?: string; error?: { message: string } }>;
    expect(ok!.result).toBe('0xa868');
    expect(refused!.error!.message).toBe('invalid argument 0: hex string has length 2, want 40 for common.Address');
  });
});
