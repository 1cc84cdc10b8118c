/**
 * A transaction receipt as coreth answers it. types.Receipts.DeriveFields (core/types/receipt.go) gives every
 * creation its contract's address, CreateAddress(sender, nonce), whether it succeeded or not; the engine answers
 * null for a creation that failed, and ethers and viem then read no contract address from a reverted deployment.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { CChain } from './evm.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

interface Receipt {
  to?: string | null;
  from?: string;
  contractAddress?: string | null;
  transactionHash?: string;
}

/** crypto.CreateAddress: the last 20 bytes of keccak256(rlp([sender, nonce])). */
function createAddress(sender: string, nonce: bigint): string {
  const encoded = RLP.encode([Buffer.from(sender.slice(2), 'hex'), nonce]);
  return `0x${Buffer.from(keccak_256(encoded).subarray(12)).toString('hex')}`;
}

/** `receipt` (the engine's answer to eth_getTransactionReceipt, or null) with a failed creation's address. */
export async function corethReceipt<R>(chain: CChain, provider: Provider, receipt: R): Promise<R> {
  const r = receipt as Receipt | null;
  if (!r || r.to !== null || r.contractAddress || !r.from || !r.transactionHash) return receipt;
  const tx = (await chain.call(provider, 'eth_getTransactionByHash', [r.transactionHash])) as { nonce?: string } | null;
  if (typeof tx?.nonce !== 'string') return receipt;
  return { ...r, contractAddress: createAddress(r.from, BigInt(tx.nonce)) } as R;
}
