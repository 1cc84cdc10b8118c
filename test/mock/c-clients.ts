/** viem's clients of a mock node's C-Chain (chain 43112, `local`), the wallet signing with the ewoq key. */
import { http, createPublicClient, createWalletClient, defineChain } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EWOQ } from './sdk-world.ts';

export function cClients(url: string) {
  const chain = defineChain({
    id: 43112,
    name: 'Avalanche local C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [`${url}/ext/bc/C/rpc`] } },
  });
  const transport = http(`${url}/ext/bc/C/rpc`);
  const account = privateKeyToAccount(`0x${Buffer.from(EWOQ).toString('hex')}`);
  return {
    chain,
    account,
    pub: createPublicClient({ chain, transport, pollingInterval: 20 }),
    wallet: createWalletClient({ chain, transport, account }),
  };
}
