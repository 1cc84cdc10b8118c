/** viem's clients of a mock node's C-Chain (chain 43112, `local`, unless told), the wallet signing with the ewoq key. */
import { Context, addTxSignatures, evm, secp256k1 } from '@avalabs/avalanchejs';
import { http, type Hex, createPublicClient, createWalletClient, defineChain, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EWOQ } from './sdk-world.ts';

export function cClients(url: string, id = 43112) {
  const chain = defineChain({
    id,
    name: 'Avalanche local C-Chain',
    nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [`${url}/ext/bc/C/rpc`] } },
  });
  const transport = http(`${url}/ext/bc/C/rpc`);
  const account = privateKeyToAccount(`0x${Buffer.from(EWOQ).toString('hex')}`);
  return {
    chain,
    account,
    // cacheTime 0: a read right after a write must see it (viem otherwise answers repeated reads from its cache).
    pub: createPublicClient({ chain, transport, pollingInterval: 20, cacheTime: 0 }),
    wallet: createWalletClient({ chain, transport, account }),
  };
}

/** A contract assembled by hand (no compiler in the toolkit): set(uint256) stores and logs ValueSet, get() reads. */
export const BYTECODE: Hex =
  '0x605c80600b6000396000f360003560e01c806360fe47b114601e5780636d4ce63c14605057600080fd5b600435806000556000527f012c78e2b84325878b1bd9d250d772cfe5bda7722d795f45036fa5e1e6e303fc60206000a1005b60005460005260206000f3';
export const ABI = parseAbi([
  'function set(uint256 value)',
  'function get() view returns (uint256)',
  'event ValueSet(uint256 value)',
]);

/** Exports 1 AVAX from the ewoq key's C-Chain account to its P-Chain address (an atomic ExportTx); the signed tx. */
export async function exportEwoqToP(url: string) {
  const { pub, account } = cClients(url);
  const ctx = await Context.getContextFromURI(url);
  const nonce = BigInt(await pub.getTransactionCount({ address: account.address }));
  const baseFee = (await new evm.EVMApi(url).getBaseFee()) / 1_000_000_000n + 1n;
  const publicKey = secp256k1.getPublicKey(EWOQ);
  const tx = evm.newExportTxFromBaseFee(
    ctx,
    baseFee,
    1_000_000_000n,
    ctx.pBlockchainID,
    secp256k1.publicKeyToEthAddress(publicKey),
    [secp256k1.publicKeyBytesToAddress(publicKey)],
    nonce,
  );
  await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
  await new evm.EVMApi(url).issueSignedTx(tx.getSignedTx());
  return tx.getSignedTx();
}
