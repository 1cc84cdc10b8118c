/**
 * Methods a v1.14.2 C-Chain serves at /ext/bc/C/rpc with its default config that the engine has no answer to
 * (mock/cchain/coreth-methods.ts). coreth's default
 * `eth-apis` (graft/coreth/plugin/evm/config/default_config.go) enable "eth", "internal-eth", "internal-blockchain"
 * and "internal-transaction"; internal/ethapi/backend.go GetAPIs registers TransactionAPI (internal/ethapi/api.go:
 * GetRawTransactionByHash, GetRawTransactionByBlockNumberAndIndex, PendingTransactions, Resend) and BlockChainAPI
 * (api_extra.go: CallDetailed, GetBadBlocks) under "eth", and eth/backend.go the "eth" EthereumAPI (eth/api.go: Etherbase, Coinbase).
 */
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const rpc = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const TO = '0x00000000000000000000000000000000000000f4';
/** An account nothing funds. */
const POOR = '0x00000000000000000000000000000000000000f7';

let codes = 0;
/** A fresh address holding `code`, set by the dev controls' anvil_setCode. */
async function withCode(code: string): Promise<string> {
  const address = `0x${(0xc0de00 + ++codes).toString(16).padStart(40, '0')}`;
  expect((await rpc('anvil_setCode', [address, code])).error).toBeUndefined();
  return address;
}

/** A transfer signed by viem and sent raw: its bytes and where it landed. */
async function rawTransfer() {
  const { pub, wallet, account } = cClients(node.url);
  const request = await wallet.prepareTransactionRequest({ account, to: TO, value: parseEther('0.5') });
  const raw = await wallet.signTransaction(request);
  const hash = await pub.sendRawTransaction({ serializedTransaction: raw });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  return { raw, hash, receipt };
}

describe("coreth's default eth_* methods", () => {
  it('eth_getRawTransactionByHash answers the signed bytes', async () => {
    const { raw, hash } = await rawTransfer();
    expect(await rpc('eth_getRawTransactionByHash', [hash])).toMatchObject({ result: raw });
  });

  it('eth_getRawTransactionByBlockNumberAndIndex answers the signed bytes', async () => {
    const { raw, receipt } = await rawTransfer();
    const at = [`0x${receipt.blockNumber.toString(16)}`, `0x${receipt.transactionIndex.toString(16)}`];
    expect(await rpc('eth_getRawTransactionByBlockNumberAndIndex', at)).toMatchObject({ result: raw });
    const byHash = [receipt.blockHash, at[1]];
    expect(await rpc('eth_getRawTransactionByBlockHashAndIndex', byHash)).toMatchObject({ result: raw });
  });

  it('eth_pendingTransactions lists none (the node manages no account)', async () => {
    expect(await rpc('eth_pendingTransactions', [])).toMatchObject({ result: [] });
  });

  it("eth_resend without a nonce is refused with coreth's text", async () => {
    const { account } = cClients(node.url);
    expect((await rpc('eth_resend', [{ from: account.address, to: TO }, null, null])).error).toMatchObject({
      code: -32000,
      message: 'missing transaction nonce in transaction spec',
    });
  });

  it('eth_getBadBlocks lists none', async () => {
    expect(await rpc('eth_getBadBlocks', [])).toMatchObject({ result: [] });
  });

  it('eth_callDetailed of a plain call to an account without code: 21,000 gas, no error, no data', async () => {
    expect(await rpc('eth_callDetailed', [{ to: TO }, 'latest'])).toMatchObject({
      result: { gas: 21_000, errCode: 0, err: '', returnData: '0x' },
    });
  });

  it('eth_etherbase is the coinbase eth_coinbase answers', async () => {
    const coinbase = (await rpc('eth_coinbase', [])).result;
    expect(coinbase).toBe('0x0100000000000000000000000000000000000000');
    expect(await rpc('eth_etherbase', [])).toMatchObject({ result: coinbase });
  });

  it('eth_getRawTransactionByHash of a hash the node never saw is empty bytes (a nil hexutil.Bytes)', async () => {
    expect(await rpc('eth_getRawTransactionByHash', [`0x${'cd'.repeat(32)}`])).toMatchObject({ result: '0x' });
  });

  it("eth_getRawTransactionByBlockNumberAndIndex past the block's transactions is empty bytes", async () => {
    expect(await rpc('eth_getRawTransactionByBlockNumberAndIndex', ['0x0', '0x5'])).toMatchObject({ result: '0x' });
  });

  it('eth_callDetailed of a revert with data: code 3, "execution reverted" and the data', async () => {
    // PUSH4 0xdeadbeef PUSH1 0 MSTORE PUSH1 4 PUSH1 28 REVERT
    const at = await withCode('0x63deadbeef6000526004601cfd');
    const answer = await rpc('eth_callDetailed', [{ to: at }, 'latest']);
    expect(answer).toMatchObject({ result: { errCode: 3, err: 'execution reverted', returnData: '0xdeadbeef' } });
    expect((answer.result as { gas: number }).gas).toBeGreaterThan(21_000);
  });

  it('eth_callDetailed of a revert without data: ErrExecutionReverted, code 0', async () => {
    const at = await withCode('0x60006000fd');
    const answer = await rpc('eth_callDetailed', [{ to: at }, 'latest']);
    expect(answer).toMatchObject({ result: { errCode: 0, err: 'execution reverted', returnData: '0x' } });
    expect((answer.result as { gas: number }).gas).toBeGreaterThan(21_000);
  });

  it("eth_callDetailed of a halt: geth's text, code 0 and all the gas", async () => {
    // JUMPDEST PUSH1 0 JUMP: a loop that runs out of gas.
    const at = await withCode('0x5b600056');
    const answer = await rpc('eth_callDetailed', [{ to: at, gas: '0x10000' }, 'latest']);
    expect(answer).toMatchObject({ result: { gas: 0x10000, errCode: 0, err: 'out of gas', returnData: '0x' } });
  });

  it("eth_callDetailed with a state override runs on the overridden state (DoCall's overrides.Apply)", async () => {
    // PUSH1 42 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN, and an SLOAD of slot 1 first (a stateDiff sets it).
    const code = '0x60015450602a60005260206000f3';
    const plain = await rpc('eth_callDetailed', [{ to: await withCode(code) }, 'latest']);
    const word = `0x${'2a'.padStart(64, '0')}`;
    const overridden = { [TO]: { code, stateDiff: { [`0x${'1'.padStart(64, '0')}`]: word } } };
    const answer = await rpc('eth_callDetailed', [{ to: TO }, 'latest', overridden]);
    // A set slot costs the same cold SLOAD: the gas is the plain run's.
    expect(answer.result).toEqual(plain.result);
    expect(answer.result).toMatchObject({ errCode: 0, err: '', returnData: word });
    // A balance override pays for a value the account lacks.
    const paid = await rpc('eth_callDetailed', [
      { from: POOR, to: TO, value: '0x1' },
      'latest',
      { [POOR]: { balance: '0x10' } },
    ]);
    expect(paid.result).toMatchObject({ gas: 21_000, errCode: 0, err: '', returnData: '0x' });
    // Nothing of it stays.
    expect(await rpc('eth_getCode', [TO, 'latest'])).toMatchObject({ result: '0x' });
    expect(await rpc('eth_getBalance', [POOR, 'latest'])).toMatchObject({ result: '0x0' });
  });

  it('eth_callDetailed with a whole-storage override is refused: the engine cannot make it', async () => {
    const answer = await rpc('eth_callDetailed', [{ to: TO }, 'latest', { [TO]: { state: {} } }]);
    expect(answer.error).toMatchObject({ code: -32000, message: expect.stringMatching(/whole storage/) });
  });

  it('eth_callDetailed of a call the sender cannot pay for fails the call', async () => {
    const answer = await rpc('eth_callDetailed', [{ from: POOR, to: TO, value: '0x1' }, 'latest']);
    expect(answer.error).toMatchObject({ code: -32000, message: expect.stringMatching(/^err: insufficient funds/) });
  });

  it('eth_resend of a transaction no pool holds: "transaction 0x… not found", the unsigned filled one\'s hash', async () => {
    const { account } = cClients(node.url);
    const args = { from: account.address, to: TO, value: '0x1', nonce: '0x0' };
    // setDefaults then toTransaction, which eth_fillTransaction answers.
    const { tx } = (await rpc('eth_fillTransaction', [args])).result as { tx: { hash: string } };
    const answer = await rpc('eth_resend', [args, null, null]);
    expect(answer.error).toEqual({ code: -32000, message: `transaction ${tx.hash} not found` });
  });

  it("eth_resend refuses a new price over RPCTxFeeCap in checkTxFee's words", async () => {
    const { account } = cClients(node.url);
    const args = { from: account.address, to: TO, nonce: '0x0' };
    const answer = await rpc('eth_resend', [args, '0x2386f26fc10000', '0x5208']);
    expect(answer.error).toEqual({
      code: -32000,
      message: 'tx fee (210.00 ether) exceeds the configured cap (100.00 ether)',
    });
  });

  it('eth_resend of a pooled transaction signed by a key the node lacks: "unknown account"', async () => {
    const { pub, wallet, account } = cClients(node.url);
    expect((await rpc('evm_setAutomine', [false])).error).toBeUndefined();
    try {
      const request = await wallet.prepareTransactionRequest({ account, to: TO, value: 7n });
      await pub.sendRawTransaction({ serializedTransaction: await wallet.signTransaction(request) });
      const hex = (n: bigint | number) => `0x${n.toString(16)}`;
      const args = {
        from: account.address,
        to: TO,
        value: '0x7',
        nonce: hex(request.nonce),
        gas: hex(request.gas),
        maxFeePerGas: hex(request.maxFeePerGas),
        maxPriorityFeePerGas: hex(request.maxPriorityFeePerGas),
      };
      expect((await rpc('eth_resend', [args, null, null])).error).toEqual({ code: -32000, message: 'unknown account' });
    } finally {
      await rpc('evm_setAutomine', [true]);
      await rpc('evm_mine', []);
    }
  });

  it("eth_resend of an impersonated account's pooled transaction sends it again at the new price", async () => {
    const whale = '0x00000000000000000000000000000000000a11ce';
    await rpc('anvil_impersonateAccount', [whale]);
    await rpc('anvil_setBalance', [whale, '0xde0b6b3a7640000']);
    expect((await rpc('evm_setAutomine', [false])).error).toBeUndefined();
    try {
      const nonce = (await rpc('eth_getTransactionCount', [whale, 'latest'])).result as string;
      const args = { from: whale, to: TO, value: '0x1', nonce, gas: '0x5208', gasPrice: '0x3b9aca00' };
      const first = (await rpc('eth_sendTransaction', [args])).result as string;
      const resent = await rpc('eth_resend', [args, '0x77359400', null]);
      expect(resent.result).toMatch(/^0x[0-9a-f]{64}$/);
      expect(resent.result).not.toBe(first);
      expect((await rpc('eth_getTransactionByHash', [resent.result])).result).toMatchObject({
        gasPrice: '0x77359400',
        nonce,
      });
      await rpc('evm_mine', []);
      expect((await rpc('eth_getTransactionReceipt', [resent.result])).result).toMatchObject({ status: '0x1' });
      expect((await rpc('eth_getTransactionReceipt', [first])).result).toBeNull();
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  });

  it("eth_resend with auto-impersonation on resends any sender's pooled transaction, as for a named one", async () => {
    const sender = '0x00000000000000000000000000000000000a11cf';
    await rpc('anvil_setBalance', [sender, '0xde0b6b3a7640000']);
    expect((await rpc('anvil_autoImpersonateAccount', [true])).error).toBeUndefined();
    expect((await rpc('evm_setAutomine', [false])).error).toBeUndefined();
    try {
      const nonce = (await rpc('eth_getTransactionCount', [sender, 'latest'])).result as string;
      const args = { from: sender, to: TO, value: '0x1', nonce, gas: '0x5208', gasPrice: '0x3b9aca00' };
      const first = (await rpc('eth_sendTransaction', [args])).result as string;
      expect(first).toMatch(/^0x[0-9a-f]{64}$/);
      const resent = await rpc('eth_resend', [args, '0x77359400', null]);
      expect(resent.result).toMatch(/^0x[0-9a-f]{64}$/);
      await rpc('evm_mine', []);
      expect((await rpc('eth_getTransactionReceipt', [resent.result])).result).toMatchObject({ status: '0x1' });
      expect((await rpc('eth_getTransactionReceipt', [first])).result).toBeNull();
      // The replaced one left the pool with its replacement mined: a nonce may be set (EDR's refusal is with a pool).
      expect(await rpc('hardhat_setNonce', ['0x00000000000000000000000000000000000a11d0', '0x2'])).toMatchObject({
        result: true,
      });
    } finally {
      await rpc('anvil_autoImpersonateAccount', [false]);
      await rpc('evm_setAutomine', [true]);
    }
  });
});
