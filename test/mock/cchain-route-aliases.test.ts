/**
 * The C-Chain's route under each of its aliases: genesis/aliases.go gives the chain's API route the aliases C, evm,
 * bc/C and bc/evm, and api/server's router.AddAlias aliases the whole route, so /ext/C/rpc, /ext/evm/avax and
 * /ext/bc/evm/ws answer as /ext/bc/C/... does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc, send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const BASES = ['/ext/C', '/ext/evm', '/ext/bc/evm', '/ext/bc/C'];

describe("the C-Chain's route aliases", () => {
  it.each(BASES)('%s/rpc answers eth_chainId', async (base) => {
    expect((await callRpc(`${node.url}${base}/rpc`, 'eth_chainId', [])).result).toBe('0xa868');
  });

  it.each(BASES)("%s/avax answers avax.getAtomicTxStatus as the C-Chain's avax service", async (base) => {
    const answer = await callRpc(`${node.url}${base}/avax`, 'avax.getAtomicTxStatus', {
      txID: '2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD',
    });
    expect(answer.result).toEqual({ status: 'Unknown' });
  });

  it('serves the websocket at an alias too', async () => {
    const socket = new WebSocket(`${node.url.replace('http', 'ws')}/ext/evm/ws`);
    const answer = await new Promise<unknown>((resolve, reject) => {
      socket.on('open', () => socket.send('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'));
      socket.on('message', (data) => resolve(JSON.parse(String(data))));
      socket.on('error', reject);
    });
    socket.close();
    expect(answer).toEqual({ jsonrpc: '2.0', id: 1, result: '0xa868' });
  });

  it('leaves other names unserved', async () => {
    const response = await send(`${node.url}/ext/bc/eth/rpc`, { body: '{}' });
    expect(response.status).toBe(404);
  });
});
