/**
 * The development controls' C-Chain parts (`dev.mine` on C, `dev.fund` of a `0x…` or `C-…` address): the rest of the
 * controls move the EVM through ./evm.ts as they move the world.
 */
import { bech32Decode, cb58Encode } from '../../generators/formats.ts';
import { makeUtxo, sha256 } from '../world/codec.ts';
import { atomicKey, type World } from '../world/world.ts';
import { blockIDOf } from './blocks.ts';
import { dropFromEngine } from './engine-pool.ts';
import type { CChain } from './evm.ts';
import { resendRaw } from './replay.ts';

/** Builds `count` C-Chain blocks: their IDs (coreth's hashes, as the node names them), oldest first, and the height. */
export async function cBlockIDs(chain: CChain, count: number): Promise<{ blockIDs: string[]; height: string }> {
  await chain.write((p) => chain.mineBlocks(p, count));
  // Read once the blocks are accepted, which the write does as it ends.
  return chain.run(async () => {
    const blockIDs: string[] = [];
    for (let n = chain.height - count + 1; n <= chain.height; n++) blockIDs.push(blockIDOf(chain.corethExtra(n)!.hash));
    return { blockIDs, height: String(chain.height) };
  });
}

/**
 * Funds a C-Chain address with `amount` nAVAX: an EVM address (`0x…`) in its EVM balance (the answer's balance in
 * wei); a `C-…` address with a UTXO in the X-Chain's shared memory for C, which `avax.getUTXOs` lists and an ImportTx
 * on C takes in.
 */
export async function fundC(
  world: World,
  chain: CChain,
  address: string,
  amount: bigint,
  serial: number,
): Promise<{ utxoID?: { txID: string; outputIndex: number }; balance: string }> {
  if (address.startsWith('0x')) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`${JSON.stringify(address)} is not an EVM address`);
    return { balance: String(await chain.fund(address.slice(2).toLowerCase(), amount)) };
  }
  const decoded = bech32Decode(address.slice(2));
  if (decoded?.payload.length !== 20) throw new Error(`${JSON.stringify(address)} is not a C-Chain address`);
  if (decoded.hrp !== world.network.hrp)
    throw new Error(`address ${address} is not on this network: its HRP is not ${world.network.hrp}`);
  const owner = Buffer.from(decoded.payload).toString('hex');
  // A fork starts from its source's tips: its source's URL keeps its IDs apart from the source's own fundings.
  const origin = world.fork ? ` fork of ${world.fork.source.url}` : '';
  const txID = cb58Encode(sha256(Buffer.from(`dev.fund C ${serial} ${world.tip('X').id} ${owner}${origin}`)));
  const utxo = makeUtxo({
    txID,
    outputIndex: 0,
    assetID: world.network.avaxAssetID,
    amount,
    owner: { locktime: 0n, threshold: 1, addresses: [owner] },
    stakeableLocktime: 0n,
  });
  // A laid-out UTXO's bytes are a getter, which spreading would drop.
  world.atomic.set(atomicKey(world.chainIDs.C, utxo.key), {
    ...utxo,
    bytes: utxo.bytes,
    sourceChain: world.chainIDs.X,
    destinationChain: world.chainIDs.C,
  });
  const balance = world
    .atomicUtxosOf(world.chainIDs.C, world.chainIDs.X, owner)
    .reduce((sum, u) => sum + (u.assetID === utxo.assetID ? u.amount : 0n), 0n);
  return { utxoID: { txID, outputIndex: 0 }, balance: String(balance) };
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const WORD = /^0x[0-9a-fA-F]{64}$/;

function evmAddress(address: unknown): string {
  if (typeof address !== 'string' || !EVM_ADDRESS.test(address))
    throw new Error(`${JSON.stringify(address)} is not an EVM address`);
  return address.slice(2).toLowerCase();
}

/**
 * anvil's state edits of a C-Chain account (`dev.setCode`, `dev.setStorageAt`, `dev.setNonce`): journaled as
 * `dev.fund` of an EVM address is (CChain.edit), so snapshots, resets and saved states cover them.
 */
export function editC(
  chain: CChain,
  p: { address?: unknown; code?: unknown; slot?: unknown; value?: unknown; nonce?: bigint },
): Promise<Record<string, never>> {
  const address = evmAddress(p.address);
  if (p.code !== undefined && (typeof p.code !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(p.code)))
    throw new Error('code must be hex bytes (0x…)');
  for (const word of [p.slot, p.value])
    if (word !== undefined && (typeof word !== 'string' || !WORD.test(word)))
      throw new Error('slot and value must be 32-byte words in hex (0x and 64 digits)');
  return chain.run(async (provider) => {
    if (p.nonce !== undefined) {
      const { nonce } = (await chain.accounts(provider, [address])).get(address)!;
      // The engine (Hardhat's EDR) only raises a nonce; anvil would lower it.
      if (p.nonce < nonce)
        throw new Error(`nonce ${p.nonce} is below the account's nonce ${nonce}: the mock's EVM only raises a nonce`);
      await poolAside(chain, provider, () => chain.editNow(provider, { address, nonce: p.nonce as bigint }));
    } else if (p.code !== undefined) await chain.editNow(provider, { address, code: (p.code as string).toLowerCase() });
    else await chain.editNow(provider, { address, storage: { slot: p.slot as string, value: p.value as string } });
    return {};
  });
}

/**
 * Runs `edit` with the pool's transactions out of the engine, which sets no nonce while it holds any (EDR's
 * SetAccountNonceWithPendingTransactions, where anvil sets it), and sends them back after in their order: one the
 * edit made invalid (its sender's nonce set past it) leaves the pool, as anvil's next block would leave it out.
 */
export async function poolAside(
  chain: CChain,
  provider: Parameters<Parameters<CChain['run']>[0]>[0],
  edit: () => Promise<void>,
) {
  const pool = chain.world.cChainPool;
  const pending = [...pool.entries()].sort(([, a], [, b]) => a.order - b.order);
  if (pending.length === 0) return edit();
  await dropFromEngine(
    chain,
    provider,
    pending.map(([hash]) => hash),
  );
  // Back to the pool, not mined: with automine on, those pending are queued behind a nonce gap.
  const automine = (await chain.call(provider, 'hardhat_getAutomine')) === true;
  if (automine) await chain.call(provider, 'evm_setAutomine', [false]);
  try {
    await edit();
  } finally {
    for (const [hash, { raw }] of pending)
      await resendRaw(chain, provider, raw).catch(() => {
        pool.delete(hash);
      });
    if (automine) await chain.call(provider, 'evm_setAutomine', [true]);
  }
}
