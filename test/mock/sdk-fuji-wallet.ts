/**
 * @avalanche-sdk/client's clients of a mock node's Fuji world, the wallet signing with a funded key of the world: the
 * SDK's wallet (0.1.1) knows the chain IDs of Mainnet and Fuji only.
 */
import { createAvalancheClient, createAvalancheWalletClient } from '@avalanche-sdk/client';
import { privateKeyToAvalancheAccount } from '@avalanche-sdk/client/accounts';
import { avalancheFuji } from '@avalanche-sdk/client/chains';
import { cb58Decode } from '../../generators/formats.ts';
import type { RunningMockNode } from '../../mock/node.ts';

/** The 0x-hex private key of the world's funded account `index`. */
export async function fundedKey(node: RunningMockNode, index = 0): Promise<string> {
  const { accounts } = (await node.dev.listAccounts()) as { accounts: { privateKey: string }[] };
  const key = accounts[index]!.privateKey.slice('PrivateKey-'.length);
  return `0x${Buffer.from(cb58Decode(key)!).toString('hex')}`;
}

export function fujiWallet(url: string, privateKey: string) {
  const account = privateKeyToAvalancheAccount(privateKey);
  const transport = { type: 'http' as const, url: `${url}/ext/bc/C/rpc` };
  const wallet = createAvalancheWalletClient({ account, chain: avalancheFuji, transport });
  const client = createAvalancheClient({ chain: avalancheFuji, transport });
  /** Signs, issues and waits for a prepared tx; its ID. */
  const send = async (prepared: Parameters<typeof wallet.sendXPTransaction>[0]): Promise<string> => {
    const sent = await wallet.sendXPTransaction(prepared);
    await wallet.waitForTxn(sent);
    return sent.txHash;
  };
  return { account, wallet, client, send };
}
