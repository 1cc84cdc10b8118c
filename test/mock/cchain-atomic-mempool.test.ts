/**
 * coreth's atomic mempool (plugin/evm/atomic/txpool) with the mock's mining off, driven with avalanchejs 5.2.0 and
 * viem: an issued ImportTx or ExportTx waits, `Processing`, its UTXOs held (a conflict refused in coreth's words, a
 * reissue answered with its ID), until the next block takes every pending atomic tx into its ExtData after the EVM's
 * transactions (postBatchOnFinalizeAndAssemble: an export whose nonce an EVM tx of the block used is discarded,
 * `Dropped`); a higher-paying conflict replaces the pending one; interval ticks and automined EVM txs build for it;
 * snapshots and reverts take the pool with the world, a loaded state starts it empty (its accepted txs read from its
 * blocks), a saved one replays a batch.
 */
import { createHash } from 'node:crypto';
import { Context, addTxSignatures, evm, secp256k1, utils, type Common } from '@avalabs/avalanchejs';
import { http, type Hex, createPublicClient, createWalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const AVAX = 1_000_000_000n;
const WEI = 1_000_000_000n;

let node: RunningMockNode;
let ctx: Awaited<ReturnType<typeof Context.getContextFromURI>>;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  ctx = await Context.getContextFromURI(node.url);
  await node.dev.setAutomine({ enabled: false });
});
afterAll(() => node?.close());

const eth = () => createPublicClient({ transport: http(`${node.url}/ext/bc/C/rpc`), cacheTime: 0 });
const avax = (method: string, params: object) => callRpc(`${node.url}/ext/bc/C/avax`, method, params);
const status = async (txID: string) => (await avax('avax.getAtomicTxStatus', { txID })).result;
const baseFeeNAVAX = async () => ((await new evm.EVMApi(node.url).getBaseFee()) + WEI - 1n) / WEI;

function newKey() {
  const secret = secp256k1.randomPrivateKey();
  const publicKey = secp256k1.getPublicKey(secret);
  const short = secp256k1.publicKeyBytesToAddress(publicKey);
  const evmBytes = secp256k1.publicKeyToEthAddress(publicKey);
  const evmAddress = `0x${Buffer.from(evmBytes).toString('hex')}` as Hex;
  return { secret, short, evmBytes, evmAddress, bech: `C-${utils.formatBech32(ctx.hrp, short)}` };
}
type Key = ReturnType<typeof newKey>;

/** Signed by `key`. */
async function signed(unsigned: Common.UnsignedTx, key: Key) {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [key.secret] });
  return unsigned;
}
/** Issued on C with avax.issueTx: the answer (its error, if refused). */
const issue = (unsigned: Common.UnsignedTx) =>
  avax('avax.issueTx', { tx: utils.bufferToHex(utils.addChecksum(unsigned.getSignedTx().toBytes())), encoding: 'hex' });
/** A signed tx's ID: the cb58 of the sha256 of its bytes. */
const txIDOf = (unsigned: Common.UnsignedTx) =>
  utils.base58check.encode(createHash('sha256').update(unsigned.getSignedTx().toBytes()).digest());

/** A key with a `nAVAX` UTXO exported to C (as from X), and an import of it to `to` paying `fee` nAVAX per gas. */
async function fundedImport(key: Key, to: Uint8Array, baseFee: bigint, nAVAX = 5n * AVAX) {
  if (!(await new evm.EVMApi(node.url).getUTXOs({ addresses: [key.bech], sourceChain: 'X' })).utxos.length)
    await node.dev.fund({ address: key.bech, amount: String(nAVAX) });
  const { utxos } = await new evm.EVMApi(node.url).getUTXOs({ addresses: [key.bech], sourceChain: 'X' });
  return signed(evm.newImportTxFromBaseFee(ctx, to, [key.short], utxos, ctx.xBlockchainID, baseFee), key);
}
const credited = (unsigned: Common.UnsignedTx) =>
  (unsigned.getTx() as unknown as { Outs: { amount: { value(): bigint } }[] }).Outs[0]!.amount.value() * WEI;
const blockNumber = async () => Number(await eth().getBlockNumber());
const blockAt = async (height: number) =>
  (await callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_getBlockByNumber', [`0x${height.toString(16)}`, false])).result as {
    blockExtraData: string;
    extDataGasUsed: string;
    transactions: string[];
  };
/** The count of atomic txs in a block's ExtData (atomic.Codec of []*Tx: version, then a u32 count). */
const atomicCount = (extData: string) => (extData === '0x' ? 0 : Number.parseInt(extData.slice(6, 14), 16));

describe('the atomic mempool while mining is off', () => {
  it('holds an import Processing, refuses a conflict in coreth’s words, and the next block takes it', async () => {
    const key = newKey();
    const fee = await baseFeeNAVAX();
    const unsigned = await fundedImport(key, key.evmBytes, fee);
    const height = await blockNumber();
    const txID = txIDOf(unsigned);
    expect((await issue(unsigned)).result).toEqual({ txID });
    expect(await status(txID)).toEqual({ status: 'Processing' });
    const pending = (await avax('avax.getAtomicTx', { txID, encoding: 'hex' })).result as Record<string, unknown>;
    expect(pending).toEqual({ tx: expect.stringMatching(/^0x/), encoding: 'hex' });
    expect(await blockNumber()).toBe(height);
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(0n);

    // Issued again: coreth's IssueTx ignores ErrAlreadyKnown and answers the ID.
    expect((await issue(unsigned)).result).toEqual({ txID });
    // The same UTXO to another address at the same price: ErrConflict, the pending one preferred.
    const other = await fundedImport(key, newKey().evmBytes, fee);
    const refused = await issue(other);
    expect(refused.error?.message).toMatch(
      new RegExp(
        `^conflict present: issued tx \\(${txIDOf(other)}\\) gas price (\\d+) <= conflict tx \\(${txID}\\) gas price \\1 \\(1 total conflicts in mempool\\)$`,
      ),
    );
    expect(await status(txIDOf(other))).toEqual({ status: 'Unknown' });

    await node.dev.mine({ chain: 'C', blocks: 1 });
    expect(await blockNumber()).toBe(height + 1);
    expect(await status(txID)).toEqual({ status: 'Accepted', blockHeight: String(height + 1) });
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(credited(unsigned));
    expect(atomicCount((await blockAt(height + 1)).blockExtraData)).toBe(1);
    // Accepted, its UTXO spent: issuing it again is refused as on a node.
    expect((await issue(unsigned)).error?.message).toBe(
      `failed to fetch import UTXOs from ${ctx.xBlockchainID} due to: not found`,
    );
  });

  it('puts every pending atomic tx in the next block, beside the EVM’s pool', async () => {
    const [a, b] = [newKey(), newKey()];
    const fee = await baseFeeNAVAX();
    const first = await fundedImport(a, a.evmBytes, fee);
    const second = await fundedImport(b, b.evmBytes, fee + 5n);
    await issue(first);
    await issue(second);
    const funder = createWalletClient({
      transport: http(`${node.url}/ext/bc/C/rpc`),
      account: privateKeyToAccount(`0x${Buffer.from(fundedKey()).toString('hex')}`),
    });
    const hash = await funder.sendTransaction({ to: b.evmAddress, value: 7n, chain: null });
    const height = await blockNumber();
    await node.dev.mine({ chain: 'C', blocks: 2 });
    const block = await blockAt(height + 1);
    expect(block.transactions).toEqual([hash]);
    expect(atomicCount(block.blockExtraData)).toBe(2);
    // The higher-paying one first, as coreth's NextTx pops the highest gas price.
    const at = (unsigned: Common.UnsignedTx) =>
      block.blockExtraData.indexOf(Buffer.from(unsigned.getSignedTx().toBytes().subarray(2)).toString('hex'));
    expect(at(second)).toBeGreaterThan(0);
    expect(at(first)).toBeGreaterThan(at(second));
    expect(BigInt(block.extDataGasUsed)).toBeGreaterThan(20_000n);
    expect(atomicCount((await blockAt(height + 2)).blockExtraData)).toBe(0);
    expect(await status(txIDOf(first))).toEqual({ status: 'Accepted', blockHeight: String(height + 1) });
    expect(await status(txIDOf(second))).toEqual({ status: 'Accepted', blockHeight: String(height + 1) });
    expect(await eth().getBalance({ address: b.evmAddress })).toBe(credited(second) + 7n);

    // A saved state replays the batch: the rebuilt block hashes as the saved one (./replay.ts checks each).
    const hashOf = async () => (await eth().getBlock({ blockNumber: BigInt(height + 1) })).hash;
    const saved = await hashOf();
    await node.dev.loadState(await node.dev.dumpState());
    expect(await hashOf()).toBe(saved);
    expect(await eth().getBalance({ address: b.evmAddress })).toBe(credited(second) + 7n);
  });

  it('lets an interval tick build the block of a pending atomic tx alone', async () => {
    const key = newKey();
    const unsigned = await fundedImport(key, key.evmBytes, await baseFeeNAVAX());
    await issue(unsigned);
    const height = await blockNumber();
    await node.dev.setIntervalMining({ interval: 20 });
    try {
      await expect
        .poll(() => status(txIDOf(unsigned)), { timeout: 60_000, interval: 20 })
        .toEqual({ status: 'Accepted', blockHeight: String(height + 1) });
    } finally {
      await node.dev.setIntervalMining({ interval: 0 });
    }
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(credited(unsigned));
  });

  it('replaces a pending tx by a higher-paying conflict, which drops it', async () => {
    const key = newKey();
    const fee = await baseFeeNAVAX();
    const low = await fundedImport(key, key.evmBytes, fee);
    const high = await fundedImport(key, key.evmBytes, fee * 3n);
    expect((await issue(low)).result).toEqual({ txID: txIDOf(low) });
    expect((await issue(high)).result).toEqual({ txID: txIDOf(high) });
    expect(await status(txIDOf(low))).toEqual({ status: 'Dropped' });
    expect(await status(txIDOf(high))).toEqual({ status: 'Processing' });
    await node.dev.mine({ chain: 'C', blocks: 1 });
    expect(await status(txIDOf(high))).toMatchObject({ status: 'Accepted' });
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(credited(high));
  });

  it('applies the atomic txs after the block’s EVM txs: an export whose nonce one of them used is dropped', async () => {
    const key = newKey();
    const fee = await baseFeeNAVAX();
    await issue(await fundedImport(key, key.evmBytes, fee));
    await node.dev.mine({ chain: 'C', blocks: 1 });
    const exported = await signed(
      evm.newExportTxFromBaseFee(ctx, fee, AVAX, ctx.pBlockchainID, key.evmBytes, [key.short], 0n),
      key,
    );
    expect((await issue(exported)).result).toEqual({ txID: txIDOf(exported) });
    expect(await status(txIDOf(exported))).toEqual({ status: 'Processing' });
    const wallet = createWalletClient({
      transport: http(`${node.url}/ext/bc/C/rpc`),
      account: privateKeyToAccount(`0x${Buffer.from(key.secret).toString('hex')}`),
    });
    const balance = await eth().getBalance({ address: key.evmAddress });
    await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000ab', value: 1n, chain: null });
    const height = await blockNumber();
    await node.dev.mine({ chain: 'C', blocks: 1 });
    expect(atomicCount((await blockAt(height + 1)).blockExtraData)).toBe(0);
    expect(await status(txIDOf(exported))).toEqual({ status: 'Dropped' });
    expect(await eth().getTransactionCount({ address: key.evmAddress })).toBe(1);
    expect(await eth().getBalance({ address: key.evmAddress })).toBeGreaterThan(balance - AVAX * WEI);
    // A dropped tx issued again is verified again, here refused: its nonce is no longer the account's.
    expect((await issue(exported)).error?.message).toBe('invalid nonce');
  });

  it('puts a pending atomic tx in the block of the next automined EVM tx', async () => {
    const key = newKey();
    const unsigned = await fundedImport(key, key.evmBytes, await baseFeeNAVAX());
    await issue(unsigned);
    await node.dev.setAutomine({ enabled: true });
    try {
      expect(await status(txIDOf(unsigned))).toEqual({ status: 'Processing' });
      const funder = createWalletClient({
        transport: http(`${node.url}/ext/bc/C/rpc`),
        account: privateKeyToAccount(`0x${Buffer.from(fundedKey()).toString('hex')}`),
      });
      const height = await blockNumber();
      const hash = await funder.sendTransaction({ to: key.evmAddress, value: 9n, chain: null });
      const block = await blockAt(height + 1);
      expect(block.transactions).toEqual([hash]);
      expect(atomicCount(block.blockExtraData)).toBe(1);
      expect(await status(txIDOf(unsigned))).toEqual({ status: 'Accepted', blockHeight: String(height + 1) });
      expect(await eth().getBalance({ address: key.evmAddress })).toBe(credited(unsigned) + 9n);
    } finally {
      await node.dev.setAutomine({ enabled: false });
    }
  });

  it('leaves an atomic tx that the block’s atomic gas capacity cannot hold for the next block', async () => {
    const key = newKey();
    const unsigned = await fundedImport(key, key.evmBytes, await baseFeeNAVAX());
    await issue(unsigned);
    const funder = createWalletClient({
      transport: http(`${node.url}/ext/bc/C/rpc`),
      account: privateKeyToAccount(`0x${Buffer.from(fundedKey()).toString('hex')}`),
    });
    // A creation whose code halts at once (INVALID) uses all its gas: ACP-176's capacity (10,000,000 at most) less it
    // leaves 1,000, short of the import's gas (RemainingAtomicGasCapacity).
    const hash = await funder.sendTransaction({ data: '0xfe', gas: 9_999_000n, chain: null });
    const height = await blockNumber();
    await node.dev.mine({ chain: 'C', blocks: 1 });
    const full = await blockAt(height + 1);
    expect(full.transactions).toEqual([hash]);
    expect((await eth().getTransactionReceipt({ hash })).gasUsed).toBe(9_999_000n);
    expect(atomicCount(full.blockExtraData)).toBe(0);
    expect(await status(txIDOf(unsigned))).toEqual({ status: 'Processing' });
    await node.dev.mine({ chain: 'C', blocks: 1 });
    expect(atomicCount((await blockAt(height + 2)).blockExtraData)).toBe(1);
    expect(await status(txIDOf(unsigned))).toEqual({ status: 'Accepted', blockHeight: String(height + 2) });
  });

  it('reverts the pool with a snapshot', async () => {
    const key = newKey();
    const unsigned = await fundedImport(key, key.evmBytes, await baseFeeNAVAX());
    const { snapshotID } = await node.dev.snapshot();
    await issue(unsigned);
    expect(await status(txIDOf(unsigned))).toEqual({ status: 'Processing' });
    await node.dev.revert({ snapshotID });
    expect(await status(txIDOf(unsigned))).toEqual({ status: 'Unknown' });
    const height = await blockNumber();
    await node.dev.mine({ chain: 'C', blocks: 1 });
    expect(atomicCount((await blockAt(height + 1)).blockExtraData)).toBe(0);

    // A loaded state is a world of its own: the pool starts empty, as a node's, and the accepted txs are its blocks'.
    const earlier = newKey();
    const before = await fundedImport(earlier, earlier.evmBytes, await baseFeeNAVAX());
    await issue(before);
    await node.dev.mine({ chain: 'C', blocks: 1 });
    const dumped = await node.dev.dumpState();
    const after = newKey();
    const later = await fundedImport(after, after.evmBytes, await baseFeeNAVAX());
    await issue(later);
    await node.dev.mine({ chain: 'C', blocks: 1 });
    expect(await status(txIDOf(later))).toEqual({ status: 'Accepted', blockHeight: String(height + 3) });
    expect((await issue(unsigned)).result).toEqual({ txID: txIDOf(unsigned) });
    expect(await status(txIDOf(unsigned))).toEqual({ status: 'Processing' });
    await node.dev.loadState(dumped);
    expect(await status(txIDOf(unsigned))).toEqual({ status: 'Unknown' });
    expect(await status(txIDOf(later))).toEqual({ status: 'Unknown' });
    expect(await status(txIDOf(before))).toEqual({ status: 'Accepted', blockHeight: String(height + 2) });
    await node.dev.mine({ chain: 'C', blocks: 1 });
    expect(atomicCount((await blockAt(height + 3)).blockExtraData)).toBe(0);

    // Another node given the state answers its atomic txs from its blocks too.
    const other = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    try {
      await other.dev.loadState(dumped);
      const answer = await callRpc(`${other.url}/ext/bc/C/avax`, 'avax.getAtomicTx', { txID: txIDOf(before) });
      expect(answer.result).toEqual({
        tx: `0x${Buffer.from(utils.addChecksum(before.getSignedTx().toBytes())).toString('hex')}`,
        encoding: 'hex',
        blockHeight: String(height + 2),
      });
    } finally {
      await other.close();
    }
  });
});

/** The local network's ewoq key, funded on C at genesis. */
function fundedKey(): Uint8Array {
  return utils.hexToBuffer('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
}
