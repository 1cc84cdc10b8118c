/**
 * An app that switches networks: the same code pointed at a local, a Fuji and a Mainnet mock node learns each one's
 * IDs from the node. avalanchejs' Context.getContextFromURI reads the network ID and its hrp; ethers and viem read the
 * C-Chain's chain ID, and net_version answers it too (coreth: ethConfig.NetworkId = chainID); a viem wallet made for
 * another chain signs for it, and the node refuses the tx as coreth does (invalid sender).
 */
import { Context } from '@avalabs/avalanchejs';
import { JsonRpcProvider } from 'ethers';
import { type Hex, createPublicClient, createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { EWOQ } from './sdk-world.ts';

const NETWORKS = [
  { network: 'local', networkID: 12345, hrp: 'local', chainID: 43112 },
  { network: 'fuji', networkID: 5, hrp: 'fuji', chainID: 43113 },
  { network: 'mainnet', networkID: 1, hrp: 'avax', chainID: 43114 },
] as const;

const nodes: Record<string, RunningMockNode> = {};
beforeAll(async () => {
  for (const { network } of NETWORKS)
    nodes[network] = await startMockNode({ port: 0, world: { network, accounts: 0 } });
});
afterAll(async () => {
  for (const node of Object.values(nodes)) await node.close();
});

describe('one app, three networks', () => {
  for (const { network, networkID, hrp, chainID } of NETWORKS) {
    it(`${network}: the context, the chain ID and net_version`, async () => {
      const url = nodes[network]!.url;
      const context = await Context.getContextFromURI(url);
      expect(context).toMatchObject({ networkID, hrp });
      const info = await callRpc(`${url}/ext/info`, 'info.getNetworkName', {});
      expect(info.result).toEqual({ networkName: network });

      const provider = new JsonRpcProvider(`${url}/ext/bc/C/rpc`, undefined, { staticNetwork: false });
      try {
        expect((await provider.getNetwork()).chainId).toBe(BigInt(chainID));
      } finally {
        provider.destroy();
      }
      const rpc = `${url}/ext/bc/C/rpc`;
      expect((await callRpc(rpc, 'eth_chainId', [])).result).toBe(`0x${chainID.toString(16)}`);
      expect((await callRpc(rpc, 'net_version', [])).result).toBe(String(chainID));
      const pub = createPublicClient({ transport: http(rpc) });
      expect(await pub.getChainId()).toBe(chainID);
    });
  }

  it('a viem wallet made for Mainnet, sending through a local node, is stopped by viem, and its raw tx refused: invalid sender', async () => {
    const mainnet = defineChain({
      id: 43114,
      name: 'Avalanche',
      nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
      rpcUrls: { default: { http: [`${nodes.local!.url}/ext/bc/C/rpc`] } },
    });
    const wallet = createWalletClient({
      chain: mainnet,
      transport: http(`${nodes.local!.url}/ext/bc/C/rpc`),
      account: privateKeyToAccount(`0x${Buffer.from(EWOQ).toString('hex')}` as Hex),
    });
    const to = `0x${'11'.repeat(20)}` as const;
    // viem prepares the tx through eth_fillTransaction, which coreth serves: the chain ID it fills is the node's, so
    // viem stops before signing.
    const error = await wallet.sendTransaction({ to, value: 1n }).catch((e: unknown) => e);
    expect((error as Error & { walk(): Error }).walk().name).toBe('ChainMismatchError');
    // Signed for Mainnet all the same and sent raw: the node refuses another chain's signature as coreth's txpool does.
    const raw = await wallet.account.signTransaction({
      chainId: 43114,
      to,
      value: 1n,
      nonce: 0,
      gas: 21_000n,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 1n,
    });
    const refused = await callRpc(`${nodes.local!.url}/ext/bc/C/rpc`, 'eth_sendRawTransaction', [raw]);
    expect(refused.error).toEqual({ code: -32000, message: 'invalid sender' });
    const pub = createPublicClient({ transport: http(`${nodes.local!.url}/ext/bc/C/rpc`) });
    expect(await pub.getTransactionCount({ address: wallet.account.address })).toBe(0);
  });
});
