/**
 * What ethers v6 and viem see of a transaction that fails on the C-Chain. Refused: both name a node's error by its
 * words (INSUFFICIENT_FUNDS, NONCE_EXPIRED, InsufficientFundsError, IntrinsicGasTooLowError...), so the mock answers in
 * coreth's txpool's (core/txpool/validation.go), never in the EVM engine's. Mined and reverted (a deployment whose
 * constructor reverts): status 0, and the receipt names the address the contract would have had, as coreth's does
 * (types.Receipts.DeriveFields gives every creation CreateAddress(sender, nonce)), in eth_getTransactionReceipt and
 * eth_getBlockReceipts alike.
 */
import { JsonRpcProvider, Transaction, Wallet, getCreateAddress, isError } from 'ethers';
import { InsufficientFundsError, IntrinsicGasTooLowError, NonceTooLowError } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';
import { EWOQ } from './sdk-world.ts';

let node: RunningMockNode;
let provider: JsonRpcProvider;
let wallet: Wallet;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  provider = new JsonRpcProvider(`${node.url}/ext/bc/C/rpc`, undefined, { pollingInterval: 20, cacheTimeout: -1 });
  wallet = new Wallet(`0x${Buffer.from(EWOQ).toString('hex')}`, provider);
});
afterAll(async () => {
  provider?.destroy();
  await node?.close();
});

const DEAD = '0x000000000000000000000000000000000000dEaD';
const FEES = { maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 1n };
const sendRaw = (raw: string) => callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_sendRawTransaction', [raw]);

describe('a refused transaction, in coreth’s words', () => {
  it('insufficient funds: the balance, the cost and the shortfall; ethers says INSUFFICIENT_FUNDS', async () => {
    const poor = Wallet.createRandom(provider);
    const tx = { to: DEAD, value: 1n, gasLimit: 21_000n, nonce: 0, chainId: 43112, ...FEES };
    expect((await sendRaw(await poor.signTransaction(tx))).error).toEqual({
      code: -32000,
      message:
        'insufficient funds for gas * price + value: balance 0, tx cost 2100000000000001, overshot 2100000000000001',
    });
    expect(isError(await poor.sendTransaction(tx).catch((e: unknown) => e), 'INSUFFICIENT_FUNDS')).toBe(true);
  });

  it('nonce too low: the account’s next nonce and the tx’s', async () => {
    await (await wallet.sendTransaction({ to: DEAD, value: 1n })).wait();
    const next = await provider.getTransactionCount(wallet.address);
    const raw = await wallet.signTransaction({
      to: DEAD,
      value: 1n,
      gasLimit: 21_000n,
      nonce: 0,
      chainId: 43112,
      ...FEES,
    });
    expect((await sendRaw(raw)).error).toEqual({
      code: -32000,
      message: `nonce too low: next nonce ${next}, tx nonce 0`,
    });
    expect(
      isError(
        await wallet.sendTransaction({ to: DEAD, value: 1n, nonce: 0 }).catch((e: unknown) => e),
        'NONCE_EXPIRED',
      ),
    ).toBe(true);
  });

  it('intrinsic gas too low: the sender, checksummed, the gas given and the minimum', async () => {
    const nonce = await provider.getTransactionCount(wallet.address);
    const raw = await wallet.signTransaction({
      to: DEAD,
      value: 1n,
      gasLimit: 20_000n,
      nonce,
      chainId: 43112,
      ...FEES,
    });
    expect(Transaction.from(raw).from).toBe(wallet.address);
    expect((await sendRaw(raw)).error).toEqual({
      code: -32000,
      message: `intrinsic gas too low: address ${wallet.address} tx gas (20000), minimum needed 21000`,
    });
    const legacy = await wallet.signTransaction({
      to: DEAD,
      gasLimit: 1n,
      gasPrice: 10n ** 11n,
      nonce,
      chainId: 43112,
    });
    expect((await sendRaw(legacy)).error?.message).toBe(
      `intrinsic gas too low: address ${wallet.address} tx gas (1), minimum needed 21000`,
    );
  });

  it('another chain’s signature: invalid sender', async () => {
    const nonce = await provider.getTransactionCount(wallet.address);
    const raw = await wallet.signTransaction({ to: DEAD, value: 1n, gasLimit: 21_000n, nonce, chainId: 1, ...FEES });
    expect((await sendRaw(raw)).error).toEqual({ code: -32000, message: 'invalid sender' });
  });

  it('init code over EIP-3860’s limit, a gas limit over the block’s, an unknown type byte', async () => {
    const nonce = await provider.getTransactionCount(wallet.address);
    const sign = (tx: object) =>
      wallet.signTransaction({ to: DEAD, gasLimit: 21_000n, nonce, chainId: 43112, ...FEES, ...tx });
    expect(
      (await sendRaw(await sign({ to: null, data: `0x${'00'.repeat(49_153)}`, gasLimit: 5_000_000n }))).error,
    ).toEqual({
      code: -32000,
      message: 'max initcode size exceeded: code size 49153, limit 49152',
    });
    await node.state.dev.mine({ chain: 'C', blocks: 1 });
    const limit = (await provider.getBlock('latest'))!.gasLimit;
    expect((await sendRaw(await sign({ gasLimit: limit + 1n }))).error).toEqual({
      code: -32000,
      message: `exceeds block gas limit: tx gas (${limit + 1n}) > current max gas (${limit})`,
    });
    expect((await sendRaw('0x1234')).error).toEqual({ code: -32000, message: 'transaction type not supported' });
  });

  it('a legacy transaction without a chain ID: refused unless it is Nick’s pattern', async () => {
    const nonce = await provider.getTransactionCount(wallet.address);
    const unprotected = Transaction.from({
      type: 0,
      gasPrice: 10n ** 11n,
      gasLimit: 21_000n,
      to: DEAD,
      value: 1n,
      nonce,
    });
    unprotected.signature = wallet.signingKey.sign(unprotected.unsignedHash);
    expect(unprotected.signature.v).toBeLessThanOrEqual(28);
    expect((await sendRaw(unprotected.serialized)).error).toEqual({
      code: -32000,
      message: 'only replay-protected (EIP-155) transactions allowed over RPC',
    });
    expect(await provider.getTransactionCount(wallet.address)).toBe(nonce);
    // Nick's method: nonce 0, r = s, a sender no one holds the key of, funded to pay for its deployment.
    const nick = Transaction.from({ type: 0, gasPrice: 10n ** 11n, gasLimit: 100_000n, data: '0x00', nonce: 0 });
    const r = `0x${'22'.repeat(32)}`;
    nick.signature = { r, s: r, v: 27 };
    await node.dev.fund({ address: nick.from!, amount: String(10n ** 9n) });
    expect((await sendRaw(nick.serialized)).result).toBe(nick.hash);
  });

  it('viem names each refusal', async () => {
    const { wallet: w, pub, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    const refusal = (args: object) => w.sendTransaction({ to: DEAD, value: 1n, ...args }).catch((e: unknown) => e);
    const walk = (error: unknown, type: new (...args: never[]) => Error) =>
      (error as { walk(fn: (e: unknown) => boolean): unknown }).walk((e) => e instanceof type);
    expect(walk(await refusal({ gas: 20_000n, nonce }), IntrinsicGasTooLowError)).toBeInstanceOf(
      IntrinsicGasTooLowError,
    );
    expect(walk(await refusal({ nonce: 0 }), NonceTooLowError)).toBeInstanceOf(NonceTooLowError);
    expect(walk(await refusal({ value: 10n ** 30n, nonce }), InsufficientFundsError)).toBeInstanceOf(
      InsufficientFundsError,
    );
  });
});

/** Init code that reverts at once: PUSH1 0 PUSH1 0 REVERT. */
const REVERTING_INIT = '0x60006000fd';

describe('a reverted deployment', () => {
  it('ethers: wait() throws CALL_EXCEPTION, and the receipt names the would-be contract', async () => {
    const tx = await wallet.sendTransaction({ data: REVERTING_INIT, gasLimit: 100_000n });
    const error = await tx.wait().catch((e: unknown) => e);
    expect(isError(error, 'CALL_EXCEPTION')).toBe(true);
    const receipt = await provider.waitForTransaction(tx.hash);
    expect(receipt?.status).toBe(0);
    expect(receipt?.contractAddress).toBe(getCreateAddress({ from: wallet.address, nonce: tx.nonce }));
    const { result } = await callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_getBlockReceipts', [
      `0x${receipt!.blockNumber.toString(16)}`,
    ]);
    expect(result[0].contractAddress).toBe(receipt!.contractAddress!.toLowerCase());
  });

  it('viem: the receipt of a reverted deployment has its contract address; a transfer has none', async () => {
    const { pub, wallet: w, account } = cClients(node.url);
    const nonce = await pub.getTransactionCount({ address: account.address });
    const hash = await w.sendTransaction({ data: REVERTING_INIT, gas: 100_000n });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('reverted');
    expect(receipt.contractAddress).toBe(getCreateAddress({ from: account.address, nonce }).toLowerCase());
    const transfer = await pub.waitForTransactionReceipt({
      hash: await w.sendTransaction({ to: account.address, value: 1n }),
    });
    expect(transfer.contractAddress).toBeNull();
  });
});
