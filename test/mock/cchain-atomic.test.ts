/**
 * Atomic transfers between the C-Chain and the X- and P-Chain over HTTP, built, signed and issued with avalanchejs
 * 5.2.0 (Context.getContextFromURI, the chains' APIs, the `evm` builders), balances read on both chains (wei through
 * viem, nAVAX through the chains' APIs): C → P then a delegation from the imported funds, P → C, X → C, C → X; a
 * double import refused with coreth's text; snapshot/revert undoing an EVM transfer and an atomic import together;
 * malformed atomic txs refused with the codec's texts.
 */
import {
  Context,
  TransferableOutput,
  addTxSignatures,
  avm,
  evm,
  pvm,
  secp256k1,
  utils,
  type Common,
} from '@avalabs/avalanchejs';
import { http, type Hex, createPublicClient, createWalletClient, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EWOQ, ewoq } from './sdk-world.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const AVAX = 1_000_000_000n;
const WEI = 1_000_000_000n;

let node: RunningMockNode;
let ctx: Awaited<ReturnType<typeof Context.getContextFromURI>>;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  ctx = await Context.getContextFromURI(node.url);
});
afterAll(() => node?.close());

const apis = () => ({ p: new pvm.PVMApi(node.url), x: new avm.AVMApi(node.url), c: new evm.EVMApi(node.url) });
const eth = () => createPublicClient({ transport: http(`${node.url}/ext/bc/C/rpc`) });
const rpc = (path: string, method: string, params: object = {}) => callRpc(node.url + path, method, params);

/** A fresh key: its secret, its short address (X, P and C atomic UTXOs) and its EVM address. */
function newKey() {
  const secret = secp256k1.randomPrivateKey();
  const publicKey = secp256k1.getPublicKey(secret);
  const short = secp256k1.publicKeyBytesToAddress(publicKey);
  const evmAddress = `0x${Buffer.from(secp256k1.publicKeyToEthAddress(publicKey)).toString('hex')}` as Hex;
  const bech = (chain: string) => `${chain}-${utils.formatBech32(ctx.hrp, short)}`;
  return { secret, short, evmAddress, bech };
}

const ewoqEvm =
  `0x${Buffer.from(secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(EWOQ))).toString('hex')}` as Hex;

async function issue(
  chain: 'X' | 'P' | 'C',
  unsigned: Common.UnsignedTx | ReturnType<typeof evm.newExportTxFromBaseFee>,
  keys: Uint8Array[],
) {
  await addTxSignatures({ unsignedTx: unsigned as Common.UnsignedTx, privateKeys: keys });
  const api = apis();
  const { txID } = await (chain === 'X' ? api.x : chain === 'P' ? api.p : api.c).issueSignedTx(unsigned.getSignedTx());
  return txID;
}

/** The base fee in nAVAX, rounded up as coreth rounds the fee it charges. */
const baseFeeNAVAX = async () => ((await apis().c.getBaseFee()) + WEI - 1n) / WEI;
const balanceP = async (address: string) =>
  BigInt(String((await rpc('/ext/bc/P', 'platform.getBalance', { addresses: [address] })).result!.unlocked));
const balanceX = async (address: string) =>
  BigInt(String((await rpc('/ext/bc/X', 'avm.getBalance', { address, assetID: 'AVAX' })).result!.balance));
const atomicStatus = async (txID: string) => (await rpc('/ext/bc/C/avax', 'avax.getAtomicTxStatus', { txID })).result;

/** Exports `amount` nAVAX from the ewoq key's EVM balance to `to` on X or P: the tx ID and the nAVAX it took. */
async function exportFromC(destination: 'X' | 'P', amount: bigint, to: Uint8Array) {
  const nonce = BigInt(await eth().getTransactionCount({ address: ewoqEvm }));
  const unsigned = evm.newExportTxFromBaseFee(
    ctx,
    await baseFeeNAVAX(),
    amount,
    destination === 'X' ? ctx.xBlockchainID : ctx.pBlockchainID,
    secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(EWOQ)),
    [to],
    nonce,
  );
  const spent = (unsigned.getTx() as unknown as { ins: { amount: { value(): bigint } }[] }).ins[0]!.amount.value();
  return { txID: await issue('C', unsigned, [EWOQ]), spent };
}

/** Imports every UTXO `source` exported to C for `owner` into the EVM address `to`. */
async function importToC(source: 'X' | 'P', owner: ReturnType<typeof newKey> | 'ewoq', to: Hex) {
  const address = owner === 'ewoq' ? `C-${utils.formatBech32(ctx.hrp, ewoq)}` : owner.bech('C');
  const { utxos } = await apis().c.getUTXOs({ addresses: [address], sourceChain: source });
  const unsigned = evm.newImportTxFromBaseFee(
    ctx,
    utils.hexToBuffer(to),
    [owner === 'ewoq' ? ewoq : owner.short],
    utxos,
    source === 'X' ? ctx.xBlockchainID : ctx.pBlockchainID,
    await baseFeeNAVAX(),
  );
  return { unsigned, utxos };
}

describe('atomic transfers with the C-Chain', () => {
  it('C → P, then a delegation from the imported funds', async () => {
    const key = newKey();
    const staking = node.world.config.staking;
    const amount = staking.minDelegatorStake + AVAX;
    const before = await eth().getBalance({ address: ewoqEvm });
    const { txID, spent } = await exportFromC('P', amount, key.short);
    expect(await eth().getBalance({ address: ewoqEvm })).toBe(before - spent * WEI);
    expect(await eth().getTransactionCount({ address: ewoqEvm })).toBeGreaterThan(0);
    expect(await atomicStatus(txID)).toMatchObject({ status: 'Accepted' });

    const p = apis().p;
    const { utxos } = await p.getUTXOs({ addresses: [key.bech('P')], sourceChain: 'C' });
    expect(utxos).toHaveLength(1);
    const imported = pvm.newImportTx(
      {
        feeState: await p.getFeeState(),
        fromAddressesBytes: [key.short],
        sourceChainId: ctx.cBlockchainID,
        toAddressesBytes: [key.short],
        utxos,
      },
      ctx,
    );
    await issue('P', imported, [key.secret]);
    const onP = await balanceP(key.bech('P'));
    expect(onP).toBeGreaterThan(staking.minDelegatorStake);
    expect(onP).toBeLessThan(amount);

    const { validators } = await p.getCurrentValidators();
    const validator = validators[0]!;
    const start = BigInt(Math.floor(new Date((await p.getTimestamp()).timestamp).getTime() / 1000));
    const delegation = pvm.newAddPermissionlessDelegatorTx(
      {
        feeState: await p.getFeeState(),
        fromAddressesBytes: [key.short],
        utxos: (await p.getUTXOs({ addresses: [key.bech('P')] })).utxos,
        nodeId: validator.nodeID,
        subnetId: ctx.pBlockchainID,
        start,
        end: start + staking.minStakeDuration,
        weight: staking.minDelegatorStake,
        rewardAddresses: [key.short],
      },
      ctx,
    );
    const delegationID = await issue('P', delegation, [key.secret]);
    expect((await p.getTxStatus({ txID: delegationID })).status).toBe('Committed');
  });

  it('P → C, and a second import of the same UTXO refused with coreth’s text', async () => {
    const key = newKey();
    const p = apis().p;
    const exported = pvm.newExportTx(
      {
        feeState: await p.getFeeState(),
        fromAddressesBytes: [ewoq],
        destinationChainId: ctx.cBlockchainID,
        utxos: (await p.getUTXOs({ addresses: [`P-${utils.formatBech32(ctx.hrp, ewoq)}`] })).utxos,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 7n * AVAX, [key.short])],
      },
      ctx,
    );
    await issue('P', exported, [EWOQ]);
    const { unsigned, utxos } = await importToC('P', key, key.evmAddress);
    expect(utxos.map((u) => u.getOutputOwners().addrs.length)).toEqual([1]);
    const txID = await issue('C', unsigned, [key.secret]);
    const credited = (
      unsigned.getTx() as unknown as { Outs: { amount: { value(): bigint } }[] }
    ).Outs[0]!.amount.value();
    expect(credited).toBeGreaterThan(7n * AVAX - AVAX / 100n);
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(credited * WEI);
    const status = await atomicStatus(txID);
    expect(status).toMatchObject({ status: 'Accepted' });
    const block = await eth().getBlock({
      blockNumber: BigInt(String((status as { blockHeight: string }).blockHeight)),
    });
    expect(block.number).toBeGreaterThan(0n);
    expect((await apis().c.getUTXOs({ addresses: [key.bech('C')], sourceChain: 'P' })).utxos).toEqual([]);

    // The same UTXO again, to another address: a new tx whose input shared memory no longer holds.
    const again = evm.newImportTxFromBaseFee(
      ctx,
      new Uint8Array(20).fill(9),
      [key.short],
      utxos,
      ctx.pBlockchainID,
      1n,
    );
    await expect(issue('C', again, [key.secret])).rejects.toThrow(
      `failed to fetch import UTXOs from ${ctx.pBlockchainID} due to: not found`,
    );
  });

  it('X → C and C → X', async () => {
    const key = newKey();
    const x = apis().x;
    const exported = avm.newExportTx(
      ctx,
      ctx.cBlockchainID,
      [ewoq],
      (await x.getUTXOs({ addresses: [`X-${utils.formatBech32(ctx.hrp, ewoq)}`] })).utxos,
      [TransferableOutput.fromNative(ctx.avaxAssetID, 3n * AVAX, [key.short])],
    );
    await issue('X', exported, [EWOQ]);
    const { unsigned } = await importToC('X', key, key.evmAddress);
    await issue('C', unsigned, [key.secret]);
    const credited = (
      unsigned.getTx() as unknown as { Outs: { amount: { value(): bigint } }[] }
    ).Outs[0]!.amount.value();
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(credited * WEI);

    const xBefore = await balanceX(key.bech('X'));
    await exportFromC('X', 2n * AVAX, key.short);
    const { utxos } = await x.getUTXOs({ addresses: [key.bech('X')], sourceChain: 'C' });
    expect(utxos).toHaveLength(1);
    await issue('X', avm.newImportTx(ctx, ctx.cBlockchainID, utxos, [key.short], [key.short]), [key.secret]);
    expect(await balanceX(key.bech('X'))).toBe(xBefore + 2n * AVAX - ctx.baseTxFee);
  });

  it('answers an atomic tx’s account as the EVM transactions and blocks after it leave it', async () => {
    const key = newKey();
    await node.dev.fund({ address: key.bech('C'), amount: String(5n * AVAX) });
    const { unsigned } = await importToC('X', key, key.evmAddress);
    await issue('C', unsigned, [key.secret]);
    const credited = (
      unsigned.getTx() as unknown as { Outs: { amount: { value(): bigint } }[] }
    ).Outs[0]!.amount.value();
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(credited * WEI);
    expect(await eth().getTransactionCount({ address: key.evmAddress })).toBe(0);

    const wallet = createWalletClient({
      transport: http(`${node.url}/ext/bc/C/rpc`),
      account: privateKeyToAccount(`0x${Buffer.from(key.secret).toString('hex')}`),
    });
    await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000ab', value: AVAX * WEI, chain: null });
    expect(await eth().getTransactionCount({ address: key.evmAddress })).toBe(1);
    const afterTransfer = await eth().getBalance({ address: key.evmAddress });
    expect(afterTransfer).toBeLessThan((credited - AVAX) * WEI);

    // The export's nonce is the one the EVM transfer left, and its amount comes off the balance that transfer left.
    const from = secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(key.secret));
    const exported = evm.newExportTxFromBaseFee(
      ctx,
      await baseFeeNAVAX(),
      AVAX,
      ctx.pBlockchainID,
      from,
      [key.short],
      1n,
    );
    await issue('C', exported, [key.secret]);
    const spent = (exported.getTx() as unknown as { ins: { amount: { value(): bigint } }[] }).ins[0]!.amount.value();
    await node.dev.mine({ chain: 'C', blocks: 1 });
    expect(await eth().getTransactionCount({ address: key.evmAddress })).toBe(2);
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(afterTransfer - spent * WEI);
  });

  it('refuses an export whose nonce is not the account’s, and one the balance cannot pay', async () => {
    const key = newKey();
    const from = secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(key.secret));
    const poor = evm.newExportTxFromBaseFee(ctx, 1n, AVAX, ctx.pBlockchainID, from, [key.short], 0n);
    await expect(issue('C', poor, [key.secret])).rejects.toThrow(/^insufficient funds$/);
    const nonce = BigInt(await eth().getTransactionCount({ address: ewoqEvm }));
    const stale = evm.newExportTxFromBaseFee(
      ctx,
      1n,
      AVAX,
      ctx.pBlockchainID,
      secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(EWOQ)),
      [key.short],
      nonce + 5n,
    );
    await expect(issue('C', stale, [EWOQ])).rejects.toThrow(/^invalid nonce$/);
    const toItself = evm.newExportTxFromBaseFee(ctx, 1n, AVAX, ctx.cBlockchainID, from, [key.short], 0n);
    await expect(issue('C', toItself, [key.secret])).rejects.toThrow(/^tx has wrong chain ID$/);
  });

  it('refuses an import that pays less than its gas at the base fee', async () => {
    const key = newKey();
    await node.dev.fund({ address: key.bech('C'), amount: String(AVAX) });
    const { utxos } = await apis().c.getUTXOs({ addresses: [key.bech('C')], sourceChain: 'X' });
    const free = evm.newImportTxFromBaseFee(ctx, new Uint8Array(20).fill(3), [key.short], utxos, ctx.xBlockchainID, 0n);
    await expect(issue('C', free, [key.secret])).rejects.toThrow(
      /^import tx flow check failed due to: insufficient funds$/,
    );
    const to = new Uint8Array(20).fill(3);
    const fromItself = evm.newImportTxFromBaseFee(ctx, to, [key.short], utxos, ctx.cBlockchainID, 1n);
    await expect(issue('C', fromItself, [key.secret])).rejects.toThrow(/^tx has wrong chain ID$/);
    const fromP = evm.newImportTxFromBaseFee(ctx, to, [key.short], utxos, ctx.pBlockchainID, 1n);
    await expect(issue('C', fromP, [key.secret])).rejects.toThrow(
      `failed to fetch import UTXOs from ${ctx.pBlockchainID} due to: not found`,
    );
    const paying = evm.newImportTxFromBaseFee(
      ctx,
      new Uint8Array(20).fill(3),
      [key.short],
      utxos,
      ctx.xBlockchainID,
      1n,
    );
    await issue('C', paying, [key.secret]);
  });

  it('reverts an EVM transfer and an atomic import together', async () => {
    const key = newKey();
    const to = '0x00000000000000000000000000000000000000aa' as Hex;
    await node.dev.fund({ address: key.bech('C'), amount: String(4n * AVAX) });
    const { snapshotID } = await node.dev.snapshot();
    const wallet = createWalletClient({
      transport: http(`${node.url}/ext/bc/C/rpc`),
      account: privateKeyToAccount(`0x${Buffer.from(EWOQ).toString('hex')}`),
    });
    await wallet.sendTransaction({ to, value: parseEther('1'), chain: null });
    const { unsigned } = await importToC('X', key, key.evmAddress);
    const txID = await issue('C', unsigned, [key.secret]);
    expect(await eth().getBalance({ address: to })).toBe(parseEther('1'));
    expect(await eth().getBalance({ address: key.evmAddress })).toBeGreaterThan(0n);

    await node.dev.revert({ snapshotID });
    expect(await eth().getBalance({ address: to })).toBe(0n);
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(0n);
    expect(await atomicStatus(txID)).toEqual({ status: 'Unknown' });
    const { utxos } = await apis().c.getUTXOs({ addresses: [key.bech('C')], sourceChain: 'X' });
    expect(utxos.map((u) => u.getOutputOwners().addrs.length)).toEqual([1]);
    // The snapshot stays: the import can be issued again, and reverted again.
    await issue('C', unsigned, [key.secret]);
    await node.dev.revert({ snapshotID });
    expect(await eth().getBalance({ address: key.evmAddress })).toBe(0n);
  });

  it('refuses malformed atomic txs with the codec’s texts', async () => {
    const issueHex = async (bytes: Uint8Array) =>
      (
        await rpc('/ext/bc/C/avax', 'avax.issueTx', {
          tx: `0x${Buffer.from(utils.addChecksum(bytes)).toString('hex')}`,
        })
      ).error?.message ?? '';
    const key = newKey();
    const valid = evm.newExportTxFromBaseFee(ctx, 1n, AVAX, ctx.pBlockchainID, new Uint8Array(20), [key.short], 0n);
    await addTxSignatures({ unsignedTx: valid, privateKeys: [key.secret] });
    const bytes = valid.getSignedTx().toBytes();
    expect(await issueHex(new Uint8Array([0]))).toBe("problem parsing transaction: couldn't unpack codec version");
    expect(await issueHex(new Uint8Array([0, 1, 0, 0]))).toBe('problem parsing transaction: unknown codec version');
    expect(await issueHex(new Uint8Array([0, 0, 0, 0, 0, 7]))).toBe(
      "problem parsing transaction: couldn't unmarshal interface: *secp256k1fx.TransferOutput does not implement " +
        'interface atomic.UnsignedAtomicTx',
    );
    expect(await issueHex(new Uint8Array([...bytes, 0]))).toBe(
      `problem parsing transaction: trailing buffer space: read ${bytes.length} provided ${bytes.length + 1}`,
    );
    expect(await issueHex(bytes.subarray(0, 40))).toBe(
      'problem parsing transaction: packer has insufficient length for input',
    );
  });
});
