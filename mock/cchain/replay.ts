/**
 * Rebuilds the C-Chain's EVM from the world (the engine has no state dump): the blocks the C/block index holds, each
 * with the time, base fee, prevrandao and transactions its RLP records, and between them the edits made outside
 * transactions (world.cChainEdits: atomic txs' balances and nonces, fundings, dev.setCode's and the like), then the transactions still pending
 * (world.cChainPool, after a revert; a saved state holds none), sent again in their order. Each rebuilt block must
 * hash as the saved one did (coreth's hash, of its coreth header), so what a `--state` file or a dumped state holds
 * comes back exactly.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Provider } from '@nomicfoundation/edr';
import { batchTxs, decodeAtomic, gasUsed } from './atomic.ts';
import type { RpcBlock } from './blocks.ts';
import { CORETH_PREVRANDAO } from './coreth-block.ts';
import type { World } from '../world/world.ts';
import { asImpersonated } from './engine-pool.ts';
import { type CChain, editRequests } from './evm.ts';
import { decodeSigned } from './signed-tx.ts';

type Item = Uint8Array | Item[];
const hex = (bytes: Uint8Array): `0x${string}` => `0x${Buffer.from(bytes).toString('hex')}`;
const quantity = (bytes: Uint8Array) => `0x${bytes.length === 0 ? '0' : BigInt(hex(bytes)).toString(16)}`;

/** The gas of a block's atomic txs (ExtData: the batch codec's version, count, then each tx). */
const atomicGas = (extData: Uint8Array): bigint =>
  batchTxs(extData).reduce((sum, tx) => sum + gasUsed(decodeAtomic(tx)), 0n);

/**
 * A transaction the engine sent for an impersonated account (`dev.impersonate`, its fake signature): its sender and
 * `eth_sendTransaction` arguments, to send it again the same way; undefined for a signed one (or a type without them).
 */
function impersonatedSend(bytes: Uint8Array): { from: string; args: Record<string, unknown> } | undefined {
  const tx = decodeSigned(bytes);
  const from = tx?.impersonatedBy;
  if (!from) return undefined;
  const q = (n: bigint) => `0x${n.toString(16)}`;
  const args = {
    from,
    nonce: q(tx.nonce),
    ...(tx.type === 2 ? { maxPriorityFeePerGas: q(tx.tip), maxFeePerGas: q(tx.feeCap) } : { gasPrice: q(tx.feeCap) }),
    gas: q(tx.gas),
    ...(tx.to ? { to: tx.to } : {}),
    value: q(tx.value),
    data: tx.data,
    ...(tx.type === 0 ? {} : { accessList: tx.accessList }),
  };
  return { from, args };
}

/**
 * Journals a transaction the engine took (`raw`, its signed bytes as hex) among the pending ones; a block that includes
 * it takes it out (./evm.ts).
 */
export function poolSent(world: World, hash: string, raw: string): void {
  let order = 0;
  for (const entry of world.cChainPool.values()) if (entry.order >= order) order = entry.order + 1;
  world.cChainPool.set(hash, { raw, order });
}

/**
 * Sends a saved transaction (its signed bytes) again: signed as it was, or from its impersonated sender, impersonated
 * for it alone unless the node impersonates it anyway (which then stays so).
 */
async function resend(chain: CChain, provider: Provider, bytes: Uint8Array): Promise<void> {
  const unsigned = impersonatedSend(bytes);
  if (!unsigned) {
    await chain.call(provider, 'eth_sendRawTransaction', [hex(bytes)]);
    return;
  }
  const from = chain.impersonated.has(unsigned.from.slice(2)) ? undefined : unsigned.from;
  await asImpersonated(chain, provider, from, () => chain.call(provider, 'eth_sendTransaction', [unsigned.args]));
}

/** Replays the world's C-Chain into a fresh engine (automine left off): whether there was anything to replay. */
export async function replayChain(chain: CChain, provider: Provider): Promise<boolean> {
  const { world } = chain;
  const blocks = world.indexes['C/block'];
  const edits = world.cChainEdits;
  if (blocks.length === 0 && edits.length === 0 && world.cChainPool.size === 0) return false;
  let next = 0;
  const applyEdits = async (height: number) => {
    for (; next < edits.length && edits.at(next)!.height <= height; next++) {
      for (const [method, params] of editRequests(edits.at(next)!)) await chain.call(provider, method, params);
    }
  };
  await chain.call(provider, 'evm_setAutomine', [false]);
  // Each block's coinbase, coreth's unless anvil_setCoinbase chose another.
  let coinbase = `0x${chain.coinbase}`;
  for (let i = 0; i < blocks.length; i++) {
    await applyEdits(i);
    const [header, txs, , , extData] = RLP.decode(blocks.at(i)!.block!.inner) as [
      Uint8Array[],
      Item[],
      Item,
      Item,
      Uint8Array,
    ];
    if (hex(header[2]!) !== coinbase) {
      coinbase = hex(header[2]!);
      await chain.call(provider, 'hardhat_setCoinbase', [coinbase]);
    }
    await chain.call(provider, 'evm_setNextBlockTimestamp', [quantity(header[11]!)]);
    // coreth's header: the base fee follows ExtDataHash.
    await chain.call(provider, 'hardhat_setNextBlockBaseFeePerGas', [quantity(header[16]!)]);
    if (chain.randomIsDifficulty) await chain.call(provider, 'hardhat_setPrevRandao', [CORETH_PREVRANDAO]);
    for (const tx of txs) await resend(chain, provider, Array.isArray(tx) ? RLP.encode(tx) : tx);
    await chain.call(provider, 'evm_mine');
    const block = (await chain.call(provider, 'eth_getBlockByNumber', [`0x${(i + 1).toString(16)}`, true])) as RpcBlock;
    // The saved header's root is the state after the edits journaled at its height (./evm.ts acceptBlocks); the
    // edits made there later, by the dev controls, are applied with the next block's.
    chain.recordFees({ ...block, stateRoot: hex(header[3]!) }, { extData, gasUsed: atomicGas(extData) });
    const expected = hex(keccak_256(RLP.encode(header)));
    const { hash } = chain.corethExtra(i + 1)!;
    if (hash !== expected)
      throw new Error(`the saved C-Chain does not replay: block ${i + 1} is ${hash}, saved as ${expected}`);
  }
  await applyEdits(Number.POSITIVE_INFINITY);
  // One the engine takes no more (a later edit spent its balance or nonce) had left its pool too.
  const pending = [...world.cChainPool.values()].sort((a, b) => a.order - b.order);
  for (const { raw } of pending) await resendRaw(chain, provider, raw).catch(() => undefined);
  return true;
}

/** Sends a pooled transaction (its signed bytes as hex) again, as it first went. */
export function resendRaw(chain: CChain, provider: Provider, raw: string): Promise<void> {
  return resend(chain, provider, Buffer.from(raw.slice(2), 'hex'));
}
