/**
 * The dev-node methods users reach for first, as anvil (crates/anvil/src/eth/api.rs, alloy's rpc-types-anvil) and
 * Hardhat's EDR answer them: anvil_autoImpersonateAccount (and its hardhat_ alias), anvil_dropAllTransactions,
 * anvil_nodeInfo, anvil_metadata / hardhat_metadata; and one evm_revert undoing a C-Chain transfer, a C → P export and
 * the P-Chain's import of it together, with evm_increaseTime moving the P-Chain's clock and the C-Chain's next block.
 */
import { Context, addTxSignatures, pvm, secp256k1 } from '@avalabs/avalanchejs';
import { type Hex, createTestClient, createWalletClient, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients, exportEwoqToP } from './c-clients.ts';
import { EWOQ } from './sdk-world.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const rpcUrl = () => `${node.url}/ext/bc/C/rpc`;
const call = async (method: string, params: unknown[] = []) => callRpc(rpcUrl(), method, params);
const TO: Hex = '0x00000000000000000000000000000000000000c0';
const P_ADDRESS = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';

describe('anvil_autoImpersonateAccount', () => {
  it('lets eth_sendTransaction from any address go unsigned while on, and only named ones after', async () => {
    const anyone: Hex = '0x00000000000000000000000000000000000a0701';
    await call('anvil_setBalance', [anyone, '0xde0b6b3a7640000']);
    const wallet = createWalletClient({ account: anyone, transport: http(rpcUrl()) });
    await expect(wallet.sendTransaction({ to: TO, value: 1n, chain: null })).rejects.toThrow(/unknown account/);
    expect(await call('anvil_autoImpersonateAccount', [true])).toMatchObject({ result: null });
    const hash = await wallet.sendTransaction({ to: TO, value: 2n, chain: null });
    const { pub } = cClients(node.url);
    expect((await pub.getTransactionReceipt({ hash })).from).toBe(anyone);
    // No `from` is coreth's zero address, in no keystore: refused even so.
    expect(await call('eth_sendTransaction', [{ to: TO, value: '0x0' }])).toMatchObject({
      error: { code: -32000, message: 'unknown account' },
    });
    // anvil's alias answers as anvil does.
    expect(await call('hardhat_autoImpersonateAccount', [false])).toMatchObject({ result: null });
    await expect(wallet.sendTransaction({ to: TO, value: 3n, chain: null })).rejects.toThrow(/unknown account/);
    expect((await call('anvil_autoImpersonateAccount', ['yes'])).error).toMatchObject({ code: -32602 });
  });
});

describe('anvil_dropAllTransactions', () => {
  it("empties the C-Chain's pool: nothing pending is mined after", async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(rpcUrl()) });
    const { wallet, pub } = cClients(node.url);
    await test.setAutomine(false);
    try {
      const hashes = [
        await wallet.sendTransaction({ to: TO, value: 5n }),
        await wallet.sendTransaction({ to: TO, value: 6n }),
      ];
      expect(await call('anvil_dropAllTransactions')).toMatchObject({ result: null });
      await test.mine({ blocks: 1 });
      for (const hash of hashes) await expect(pub.getTransaction({ hash })).rejects.toThrow(/could not be found/);
      expect((await pub.getBlock()).transactions).toEqual([]);
    } finally {
      await test.setAutomine(true);
    }
  });
});

describe('anvil_nodeInfo, anvil_metadata, hardhat_metadata', () => {
  it("describe the node in anvil's and Hardhat's shapes, from the C-Chain's latest block", async () => {
    const { pub } = cClients(node.url);
    await call('anvil_mine', ['0x2']);
    const latest = await pub.getBlock();
    const info = (await call('anvil_nodeInfo')).result;
    expect(info).toEqual({
      currentBlockNumber: `0x${latest.number.toString(16)}`,
      currentBlockTimestamp: Number(latest.timestamp),
      currentBlockHash: latest.hash,
      hardFork: 'granite',
      transactionOrder: 'fees',
      environment: {
        baseFee: `0x${latest.baseFeePerGas!.toString(16)}`,
        chainId: 43112,
        gasLimit: `0x${latest.gasLimit.toString(16)}`,
        gasPrice: (await call('eth_gasPrice')).result,
      },
      forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    });
    const clientVersion = (await call('web3_clientVersion')).result;
    const anvil = (await call('anvil_metadata')).result;
    expect(anvil).toEqual({
      clientVersion,
      chainId: 43112,
      instanceId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      latestBlockNumber: Number(latest.number),
      latestBlockHash: latest.hash,
      forkedNetwork: null,
      snapshots: {},
    });
    const hardhat = (await call('hardhat_metadata')).result;
    expect(hardhat).toEqual({
      clientVersion,
      chainId: 43112,
      instanceId: anvil.instanceId,
      latestBlockNumber: Number(latest.number),
      latestBlockHash: latest.hash,
    });
    // A snapshot is listed with the block it was taken at; a reset gives the node a new instance ID, as Hardhat's does.
    const id = (await call('evm_snapshot')).result;
    expect(id).toMatch(/^0x[0-9a-f]+$/);
    expect((await call('anvil_metadata')).result.snapshots).toEqual({
      // alloy's U256 keys, as 0x-hex (rpc-types-anvil Metadata), as evm_snapshot names it.
      [id]: [Number(latest.number), latest.hash],
    });
    await call('evm_revert', [id]);
    await call('anvil_reset');
    expect((await call('hardhat_metadata')).result.instanceId).not.toBe(anvil.instanceId);
    expect((await call('anvil_nodeInfo', [1])).error).toMatchObject({ code: -32602 });
  });
});

describe('one evm_revert across X, P and C', () => {
  it('undoes a C transfer, a C → P export and its import on P; evm_increaseTime moves P and C together', async () => {
    const { pub, wallet, account } = cClients(node.url);
    const p = new pvm.PVMApi(node.url);
    const state = async () => ({
      c: await pub.getBalance({ address: account.address }),
      to: await pub.getBalance({ address: TO }),
      cHeight: await pub.getBlockNumber(),
      p: (await p.getBalance({ addresses: [P_ADDRESS] })).balance,
      pHeight: (await p.getHeight()).height,
      pAtomic: (await p.getUTXOs({ addresses: [P_ADDRESS], sourceChain: 'C' })).utxos.length,
      pTime: (await p.getTimestamp()).timestamp,
    });
    const before = await state();
    const id = (await call('evm_snapshot')).result;

    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO, value: parseEther('1') }) });
    await exportEwoqToP(node.url);
    const ctx = await Context.getContextFromURI(node.url);
    const { utxos } = await p.getUTXOs({ addresses: [P_ADDRESS], sourceChain: 'C' });
    const short = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(EWOQ));
    const imported = pvm.newImportTx(
      {
        feeState: await p.getFeeState(),
        fromAddressesBytes: [short],
        sourceChainId: ctx.cBlockchainID,
        toAddressesBytes: [short],
        utxos,
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: imported, privateKeys: [EWOQ] });
    const { txID } = await p.issueSignedTx(imported.getSignedTx());
    expect((await p.getTxStatus({ txID })).status).toBe('Committed');
    const increased = await call('evm_increaseTime', [3600]);
    expect(increased.result).toMatch(/^\d+$/);
    await call('evm_mine');

    const changed = await state();
    expect(changed.to).toBe(before.to + parseEther('1'));
    expect(BigInt(changed.p)).toBeGreaterThan(BigInt(before.p));
    expect(changed.pAtomic).toBe(before.pAtomic);
    expect(Date.parse(changed.pTime) - Date.parse(before.pTime)).toBeGreaterThanOrEqual(3_600_000);
    expect((await pub.getBlock()).timestamp).toBe(BigInt(Date.parse(changed.pTime) / 1000));

    expect((await call('evm_revert', [id])).result).toBe(true);
    expect(await state()).toEqual(before);
    // Used once, as anvil's and Hardhat's: the same ID again is false.
    expect((await call('evm_revert', [id])).result).toBe(false);
  });
});

describe('evm_setTime', () => {
  it('reads the time in seconds, as anvil does (api.rs evm_set_time): a time past year 9999 is refused', async () => {
    const { pub } = cClients(node.url);
    const p = new pvm.PVMApi(node.url);
    // After anvil_reset the last block (genesis) is older than the network's clock, which never goes back.
    const [last, clock] = [(await pub.getBlock()).timestamp, BigInt(Date.parse((await p.getTimestamp()).timestamp))];
    // 2e12 seconds is past what the node's JSON can write; anvil reads it as seconds too, never as milliseconds.
    expect((await call('evm_setTime', [2_000_000_000_000])).error).toMatchObject({ code: -32602 });
    expect((await call('anvil_setTime', [2_000_000_000_000])).error).toMatchObject({ code: -32602 });
    const seconds = (last > clock / 1000n ? last : clock / 1000n) + 86_400n;
    expect((await call('evm_setTime', [Number(seconds)])).error).toBeUndefined();
    await call('evm_mine');
    expect((await pub.getBlock()).timestamp).toBe(seconds);
    expect(Date.parse((await p.getTimestamp()).timestamp) / 1000).toBe(Number(seconds));
  });
});

describe('anvil_setNonce with transactions pending', () => {
  it("sets the nonce as anvil does, keeping the pool; hardhat_setNonce refuses in EDR's words", async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(rpcUrl()) });
    const { wallet, pub } = cClients(node.url);
    const other: Hex = '0x00000000000000000000000000000000000a0702';
    await test.setAutomine(false);
    try {
      const hashes = [
        await wallet.sendTransaction({ to: TO, value: 8n }),
        await wallet.sendTransaction({ to: TO, value: 9n }),
      ];
      // EDR answers SetAccountNonceWithPendingTransactions as INTERNAL_ERROR (error.rs).
      expect(await call('hardhat_setNonce', [other, '0x3'])).toMatchObject({
        error: { code: -32603, message: 'Cannot set account nonce when the transaction pool is not empty' },
      });
      expect(await call('anvil_setNonce', [other, '0x3'])).toMatchObject({ result: null });
      expect(await pub.getTransactionCount({ address: other })).toBe(3);
      await test.mine({ blocks: 1 });
      for (const hash of hashes) expect((await pub.getTransactionReceipt({ hash })).status).toBe('success');
      expect(await pub.getTransactionCount({ address: other })).toBe(3);
    } finally {
      await test.setAutomine(true);
    }
  });

  it("sets the nonce with exactly one transaction pending, the node's first, which is mined after", async () => {
    // A node of its own: what earlier tests left in the engine's pool would hide the case.
    const fresh = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    try {
      const url = `${fresh.url}/ext/bc/C/rpc`;
      const test = createTestClient({ mode: 'anvil', transport: http(url) });
      const { wallet, pub } = cClients(fresh.url);
      const other: Hex = '0x00000000000000000000000000000000000a0704';
      await test.setAutomine(false);
      const hash = await wallet.sendTransaction({ to: TO, value: 12n });
      expect(await callRpc(url, 'anvil_setNonce', [other, '0x2'])).toMatchObject({ result: null });
      expect(await pub.getTransactionCount({ address: other })).toBe(2);
      await test.mine({ blocks: 1 });
      expect((await pub.getTransactionReceipt({ hash })).status).toBe('success');
    } finally {
      await fresh.close();
    }
  });

  it('sets the nonce once the only pending transaction is dropped, by either name', async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(rpcUrl()) });
    const { wallet } = cClients(node.url);
    await test.setAutomine(false);
    try {
      for (const [drop, address] of [
        ['hardhat_dropTransaction', '0x00000000000000000000000000000000000a0705'],
        ['anvil_dropTransaction', '0x00000000000000000000000000000000000a0706'],
      ] as const) {
        const hash = await wallet.sendTransaction({ to: TO, value: 13n });
        expect((await call(drop, [hash])).error).toBeUndefined();
        expect(await call('hardhat_setNonce', [address, '0x3'])).toMatchObject({ result: true });
        expect(await call('anvil_setNonce', [address, '0x4'])).toMatchObject({ result: null });
      }
    } finally {
      await test.setAutomine(true);
    }
  });

  it('keeps a transaction queued behind a nonce gap with automine on, mined once the gap is filled', async () => {
    const { wallet, pub, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    const queued = await wallet.sendTransaction({ to: TO, value: 11n, nonce: nonce + 1 });
    expect(await call('anvil_setNonce', ['0x00000000000000000000000000000000000a0703', '0x4'])).toMatchObject({
      result: null,
    });
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO, value: 10n, nonce }) });
    expect((await pub.waitForTransactionReceipt({ hash: queued })).status).toBe('success');
  });
});

describe('setCode params', () => {
  it('takes hex in either case, as anvil and EDR read bytes, and refuses an odd number of digits as bad params', async () => {
    const address = '0x00000000000000000000000000000000000a0704';
    expect(await call('anvil_setCode', [address, '0x602A60005260206000F3'])).toMatchObject({ result: null });
    expect((await call('eth_getCode', [address, 'latest'])).result).toBe('0x602a60005260206000f3');
    for (const method of ['anvil_setCode', 'hardhat_setCode'])
      expect((await call(method, [address, '0x6'])).error).toMatchObject({ code: -32602 });
    expect((await call('eth_getCode', [address, 'latest'])).result).toBe('0x602a60005260206000f3');
  });
});

describe('anvil_setNextBlockTimestamp', () => {
  it("refuses a time before the last block's in anvil's words, and takes the last block's own time", async () => {
    const { pub } = cClients(node.url);
    const last = (await pub.getBlock()).timestamp;
    expect((await call('anvil_setNextBlockTimestamp', [Number(last - 1n)])).error).toEqual({
      code: -32602,
      message: `Timestamp error: ${last - 1n} is lower than previous block's timestamp`,
    });
    expect(await call('anvil_setNextBlockTimestamp', [Number(last)])).toMatchObject({ result: null });
  });
});
