/**
 * eth_call's block overrides on /ext/bc/C/rpc (coreth v1.14.2 internal/ethapi BlockOverrides: number, difficulty,
 * time, gasLimit, coinbase, baseFee, blobBaseFee; other fields ignored as encoding/json ignores them), through viem
 * and raw JSON, with a state override beside them; a call changes nothing of the chain or its pending block.
 */
import { type Hex, hexToBigInt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const c = (method: string, params: unknown[]) => callRpc(`${node.url}/ext/bc/C/rpc`, method, params);
const TARGET: Hex = '0x00000000000000000000000000000000000000aa';
/** Returns NUMBER, TIMESTAMP, COINBASE, GASLIMIT, PREVRANDAO as five words. */
const RETURNS_CONTEXT: Hex = '0x436000524260205241604052456060524460805260a06000f3';
const state = { [TARGET]: { code: RETURNS_CONTEXT } };
const COINBASE: Hex = `0x${'11'.repeat(20)}`;

interface Context {
  number: bigint;
  time: bigint;
  coinbase: string;
  gasLimit: bigint;
  prevRandao: bigint;
}

function context(answer: unknown): Context {
  const { result } = answer as { result: Hex };
  const words = result
    .slice(2)
    .match(/.{64}/g)!
    .map((word) => hexToBigInt(`0x${word}`));
  const [number, time, coinbase, gasLimit, prevRandao] = words as [bigint, bigint, bigint, bigint, bigint];
  return { number, time, coinbase: `0x${coinbase.toString(16).padStart(40, '0')}`, gasLimit, prevRandao };
}

/** The engine's pending block as a node builds it next: what a call must leave as it was. */
async function pendingBlock() {
  const { chain } = await node.state.cChain.load();
  const block = (await chain.request('eth_getBlockByNumber', ['pending', false])) as {
    miner: string;
    gasLimit: string;
    baseFeePerGas: string;
    timestamp: string;
  };
  return { miner: block.miner, gasLimit: block.gasLimit, baseFeePerGas: block.baseFeePerGas, time: block.timestamp };
}

describe('eth_call with block overrides on /ext/bc/C/rpc', () => {
  it("runs the call in the overridden block's context, and the rest is the last block's", async () => {
    const { pub } = cClients(node.url);
    const latest = await pub.getBlock();
    const plain = context(await c('eth_call', [{ to: TARGET }, 'latest', state]));
    const time = latest.timestamp + 0x1234n;
    const overridden = context(
      await c('eth_call', [
        { to: TARGET },
        'latest',
        state,
        {
          number: '0x100',
          time: `0x${time.toString(16)}`,
          coinbase: COINBASE,
          gasLimit: '0x1000000',
          difficulty: '0x1',
        },
      ]),
    );
    expect(overridden).toEqual({ number: 0x100n, time, coinbase: COINBASE, gasLimit: 0x1000000n, prevRandao: 1n });
    // Only the time: the other fields as the call without overrides reads them (but its height, see below).
    const onlyTime = context(
      await c('eth_call', [{ to: TARGET }, 'latest', state, { TIME: `0x${time.toString(16)}` }]),
    );
    expect({ ...onlyTime, number: plain.number }).toEqual({ ...plain, time });
    // The engine runs it at the next height: one more than coreth's NUMBER at the last block.
    expect(onlyTime.number).toBe(latest.number + 1n);
  });

  it("takes viem's blockOverrides, ignoring the fields coreth v1.14.2 does not have", async () => {
    const { pub } = cClients(node.url);
    const latest = await pub.getBlock();
    const plain = context(await c('eth_call', [{ to: TARGET }, 'latest', state]));
    const { data } = await pub.call({
      to: TARGET,
      stateOverride: [{ address: TARGET, code: RETURNS_CONTEXT }],
      // viem writes geth's later names: feeRecipient and prevRandao, which coreth's BlockOverrides has not.
      blockOverrides: { time: latest.timestamp + 60n, gasLimit: 30_000_000n, feeRecipient: COINBASE, prevRandao: 5n },
    });
    const read = context({ result: data });
    expect(read.time).toBe(latest.timestamp + 60n);
    expect(read.gasLimit).toBe(30_000_000n);
    expect(read.coinbase).toBe(plain.coinbase);
    expect(read.prevRandao).toBe(plain.prevRandao);
  });

  it('leaves the chain and its pending block as they were, whether the call succeeds, reverts or is refused', async () => {
    const { pub } = cClients(node.url);
    const latest = await pub.getBlock();
    const pending = await pendingBlock();
    // Past the next block's time (the world's), which is past the genesis block's (local's is its file's, 2020).
    const far = `0x${(node.world.time.get() + 10n ** 6n).toString(16)}`;
    const overrides = {
      number: `0x${(latest.number + 50n).toString(16)}`,
      time: far,
      coinbase: COINBASE,
      gasLimit: '0x5208',
    };
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, overrides])).toHaveProperty('result');
    const reverting = { [TARGET]: { code: '0x60006000fd' } };
    expect(await c('eth_call', [{ to: TARGET }, 'latest', reverting, overrides])).toEqual({
      error: { code: -32000, message: 'execution reverted' },
    });
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, { ...overrides, time: '0x1' }])).toEqual({
      error: {
        code: -32000,
        message: `the mock cannot build the block these overrides ask for: a time before its last block's (0x${latest.timestamp.toString(16)})`,
      },
    });
    const after = await pub.getBlock();
    expect(after.hash).toBe(latest.hash);
    expect(await pub.getCode({ address: TARGET })).toBeUndefined();
    const now = await pendingBlock();
    expect({ ...now, time: undefined }).toEqual({ ...pending, time: undefined });
    expect(BigInt(now.time)).toBeLessThan(BigInt(far));
    // The next block is built as before: a transfer lands at the next height, with coreth's etherbase as coinbase
    // (the genesis, which may be the last block, names the genesis file's, the zero address).
    const { wallet } = cClients(node.url);
    const hash = await wallet.sendTransaction({ to: TARGET, value: 1n });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    expect(receipt.blockNumber).toBe(latest.number + 1n);
    const block = await pub.getBlock({ blockNumber: receipt.blockNumber });
    expect(block.miner).toBe('0x0100000000000000000000000000000000000000');
    expect(block.timestamp).toBeLessThan(BigInt(far));
  });

  it("refuses what coreth's decoder refuses, and takes a null or empty override as none", async () => {
    const plain = await c('eth_call', [{ to: TARGET }, 'latest', state]);
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, null])).toEqual(plain);
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, { withdrawals: [] }])).toEqual(plain);
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, { time: '1' }])).toEqual({
      error: {
        code: -32602,
        message:
          'invalid argument 3: json: cannot unmarshal hex string without 0x prefix into Go struct field BlockOverrides.Time of type hexutil.Uint64',
      },
    });
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, { baseFee: 7 }])).toEqual({
      error: {
        code: -32602,
        message:
          'invalid argument 3: json: cannot unmarshal non-string into Go struct field BlockOverrides.BaseFee of type *hexutil.Big',
      },
    });
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, 'soon'])).toEqual({
      error: {
        code: -32602,
        message: 'invalid argument 3: json: cannot unmarshal string into Go value of type ethapi.BlockOverrides',
      },
    });
    // Values coreth takes that the engine cannot build a block with (it aborts on a time past 2^63) are refused.
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, { time: '0xffffffffffffffff' }])).toEqual({
      error: {
        code: -32000,
        message: 'the mock cannot build the block these overrides ask for: a time past 0x3fffffffffffffff',
      },
    });
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, { gasLimit: '0x0' }])).toEqual({
      error: { code: -32000, message: 'the mock cannot build the block these overrides ask for: a gas limit of 0' },
    });
    // What the engine cannot build (it builds a call's block only on its last one), in one message.
    const { pub } = cClients(node.url);
    const latest = await pub.getBlock();
    expect(latest.number).toBeGreaterThan(0n);
    const cannot = (what: string) => ({
      error: { code: -32000, message: `the mock cannot build the block these overrides ask for: ${what}` },
    });
    const next = `0x${(latest.number + 1n).toString(16)}`;
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, { number: '0x0' }])).toEqual(
      cannot(`a height before ${next}`),
    );
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, { blobBaseFee: '0x1' }])).toEqual(
      cannot('a blob base fee'),
    );
    // An older block without a number overridden runs there, on a second engine (cchain-block-overrides-header.test.ts).
    const genesis = context(await c('eth_call', [{ to: TARGET }, '0x0', state, { gasLimit: '0x5208' }]));
    expect({ number: genesis.number, gasLimit: genesis.gasLimit }).toEqual({ number: 0n, gasLimit: 0x5208n });
    expect(await c('eth_call', [{ to: TARGET }, '0x0', state, { number: next }])).toEqual(
      cannot('a block other than the last accepted one or pending'),
    );
    const far = context(await c('eth_call', [{ to: TARGET }, 'latest', state, { number: '0xffffffffffffffff' }]));
    expect(far.number).toBe(2n ** 64n - 1n);
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state])).toEqual(plain);
    expect(await c('eth_call', [{ to: TARGET }, 'latest', state, {}, {}])).toEqual({
      error: { code: -32602, message: 'too many arguments, want at most 4' },
    });
  });
});
