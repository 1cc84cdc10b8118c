/**
 * The generated C-Chain client against the mock node's `/ext/bc/C/rpc`, over HTTP on 127.0.0.1: coreth's RPC layer
 * (go-ethereum's rpc/json.go) takes params only as an array, so the client sends its by-position methods' params in
 * their declared order, and a call succeeds where an object would be refused with "non-array args".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CChainRpcClient } from '../../generated/c-chain/client/dist/index.js';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

const EWOQ_C = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

/** A client whose every request body is kept, sent with the global fetch. */
function recordingClient(): { client: CChainRpcClient; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const client = new CChainRpcClient({
    baseUrl: node.url,
    fetch: (url, init) => {
      bodies.push(JSON.parse(init.body));
      return fetch(url, init);
    },
  });
  return { client, bodies };
}

describe('the generated C-Chain client on the mock node', () => {
  it('sends eth_call its transaction and block as an array, and reads the answer', async () => {
    const { client, bodies } = recordingClient();
    const transaction = { from: EWOQ_C, to: EWOQ_C, data: '0x' };
    expect(await client.ethCall({ Transaction: transaction, Block: 'latest' })).toBe('0x');
    expect(bodies).toEqual([{ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [transaction, 'latest'] }]);
  });

  it('drops an omitted trailing param and sends a method without params an empty array', async () => {
    const { client, bodies } = recordingClient();
    expect(BigInt(await client.ethGetBalance({ Address: EWOQ_C }))).toBeGreaterThan(0n);
    expect(await client.ethChainId()).toBe('0xa868');
    expect(bodies.map((body) => (body as { params: unknown }).params)).toEqual([[EWOQ_C], []]);
  });

  it('sends an untyped call() without params an empty array, as the typed method does', async () => {
    const { client, bodies } = recordingClient();
    expect(await client.call('eth_chainId')).toBe('0xa868');
    expect(await client.call('net_version')).toBe(await client.netVersion());
    expect(await client.call('eth_getBalance', [EWOQ_C, 'latest'])).toBe(
      await client.ethGetBalance({ Address: EWOQ_C }),
    );
    expect(bodies.map((body) => (body as { params: unknown }).params)).toEqual([
      [],
      [],
      [],
      [EWOQ_C, 'latest'],
      [EWOQ_C],
    ]);
  });
});
