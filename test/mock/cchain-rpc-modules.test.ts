/**
 * rpc_modules, which every geth-derived RPC server registers (graft/evm/rpc/server.go NewServer: the "rpc" MetadataApi,
 * RPCService.Modules): the namespaces a v1.14.2 C-Chain serves with its default `eth-apis` (eth, eth-filter, net,
 * web3, internal-eth, internal-blockchain, internal-transaction: "eth", "net", "web3") and "rpc" itself, each "1.0".
 */
import { http, createPublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const MODULES = { eth: '1.0', net: '1.0', rpc: '1.0', web3: '1.0' };

describe('rpc_modules on the C-Chain', () => {
  it("answers coreth's default namespaces, over HTTP and in a batch", async () => {
    const client = createPublicClient({ transport: http(`${node.url}/ext/bc/C/rpc`, { batch: true }) });
    const [modules, chainId] = await Promise.all([
      client.request({ method: 'rpc_modules' as 'eth_chainId' }),
      client.request({ method: 'eth_chainId' }),
    ]);
    expect(modules).toEqual(MODULES);
    expect(chainId).toBe('0xa868');
  });

  it('refuses arguments as Go refuses them for a method taking none', async () => {
    const url = `${node.url}/ext/bc/C/rpc`;
    expect((await callRpc(url, 'rpc_modules', [1])).error).toEqual({
      code: -32602,
      message: 'too many arguments, want at most 0',
    });
    expect((await callRpc(url, 'rpc_modules', {})).error).toEqual({ code: -32602, message: 'non-array args' });
    expect((await callRpc(url, 'rpc_modules', [])).result).toEqual(MODULES);
  });
});
