/**
 * Rebuilds the C-Chain's EVM from the world (the engine has no state dump): the blocks the C/block index holds, each
 * with the time, base fee, prevrandao and transactions its RLP records, and between them the edits made outside
 * transactions (world.cChainEdits: atomic txs' balances and nonces, fundings, dev.setCode's and the like), then the transactions still pending
 * (world.cChainPool), sent again in their order. Each rebuilt block must hash as the saved one did (coreth's hash, of
 * its coreth header), so what a `--state` file or a dumped state holds comes back exactly.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Provider } from '@nomicfoundation/edr';
import { decodeAtomic, gasUsed } from './atomic.ts';
import type { RpcBlock } from './blocks.ts';
import { CORETH_PREVRANDAO } from './coreth-block.ts';
import type { World } from '../world/world.ts';
import { type CChain, editRequests } from './evm.ts';

type Item = Uint8Array | Item[];
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const quantity = (bytes: Uint8Array) => `0x${bytes.length === 0 ? '0' : BigInt(hex(bytes)).toString(16)}`;

/** The gas of a block's atomic txs (ExtData: the batch codec's version, count, then the one tx the mock puts there). */
function atomicGas(extData: Uint8Array): bigint {
  if (extData.length === 0) return 0n;
  return gasUsed(decodeAtomic(Buffer.concat([Buffer.alloc(2), extData.subarray(6)])));
}

/**
 * The engine signs a transaction it sends for an impersonated account (`dev.impersonate`) with a fake signature, r and
 * s both the sender's address: the same transaction from the same sender hashes alike. Such a transaction's sender and
 * `eth_sendTransaction` arguments, to send it again the same way; undefined for a signed one (or a type without them).
 */
function impersonatedSend(tx: Item): { from: string; args: Record<string, unknown> } | undefined {
  const type = Array.isArray(tx) ? 0 : tx[0]!;
  if (type > 2) return undefined;
  const fields = (Array.isArray(tx) ? tx : RLP.decode((tx as Uint8Array).subarray(1))) as Item[];
  const [r, s] = fields.slice(-2) as Uint8Array[];
  if (!r || !s || r.length > 20 || hex(r) !== hex(s)) return undefined;
  const from = `0x${Buffer.from(r).toString('hex').padStart(40, '0')}`;
  const body = (type === 0 ? fields : fields.slice(1)) as Uint8Array[];
  const [nonce, ...rest] = body;
  const fees =
    type === 2
      ? { maxPriorityFeePerGas: quantity(rest.shift()!), maxFeePerGas: quantity(rest.shift()!) }
      : { gasPrice: quantity(rest.shift()!) };
  const [gas, to, value, data] = rest;
  const accessList =
    type === 0
      ? undefined
      : (fields.at(-4) as unknown as [Uint8Array, Uint8Array[]][]).map(([address, keys]) => ({
          address: hex(address),
          storageKeys: keys.map(hex),
        }));
  const args = {
    from,
    nonce: quantity(nonce!),
    ...fees,
    gas: quantity(gas!),
    ...(to!.length > 0 ? { to: hex(to!) } : {}),
    value: quantity(value!),
    data: hex(data!),
    ...(accessList ? { accessList } : {}),
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

/** Sends a saved transaction again: signed as it was, or from its impersonated sender as it first went. */
async function resend(chain: CChain, provider: Provider, tx: Item): Promise<void> {
  const unsigned = impersonatedSend(tx);
  if (!unsigned) {
    await chain.call(provider, 'eth_sendRawTransaction', [hex(Array.isArray(tx) ? RLP.encode(tx) : tx)]);
    return;
  }
  await chain.call(provider, 'hardhat_impersonateAccount', [unsigned.from]);
  try {
    await chain.call(provider, 'eth_sendTransaction', [unsigned.args]);
  } finally {
    await chain.call(provider, 'hardhat_stopImpersonatingAccount', [unsigned.from]);
  }
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
  for (let i = 0; i < blocks.length; i++) {
    await applyEdits(i);
    const [header, txs, , , extData] = RLP.decode(blocks.at(i)!.block!.inner) as [
      Uint8Array[],
      Item[],
      Item,
      Item,
      Uint8Array,
    ];
    await chain.call(provider, 'evm_setNextBlockTimestamp', [quantity(header[11]!)]);
    // coreth's header: the base fee follows ExtDataHash.
    await chain.call(provider, 'hardhat_setNextBlockBaseFeePerGas', [quantity(header[16]!)]);
    if (chain.randomIsDifficulty) await chain.call(provider, 'hardhat_setPrevRandao', [CORETH_PREVRANDAO]);
    for (const tx of txs) await resend(chain, provider, tx);
    await chain.call(provider, 'evm_mine');
    const block = (await chain.call(provider, 'eth_getBlockByNumber', [`0x${(i + 1).toString(16)}`, true])) as RpcBlock;
    chain.recordFees(block, { extData, gasUsed: atomicGas(extData) });
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
  const bytes = Buffer.from(raw.slice(2), 'hex');
  // A typed transaction starts with its type byte; a legacy one is an RLP list (0xc0 and up).
  return resend(chain, provider, bytes[0]! >= 0xc0 ? (RLP.decode(bytes) as Item[]) : bytes);
}
