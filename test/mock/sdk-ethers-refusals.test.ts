/**
 * A transaction the C-Chain refuses, through ethers v6 and viem: both name a node's error by its words
 * (INSUFFICIENT_FUNDS, NONCE_EXPIRED, InsufficientFundsError, IntrinsicGasTooLowError...), so the mock answers in
 * coreth's txpool's (core/txpool/validation.go), never in the EVM engine's.
 */
import { JsonRpcProvider, Transaction, Wallet, isError } from 'ethers';
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
