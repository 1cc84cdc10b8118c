/**
 * The header fields of a block a v1.14.2 C-Chain builds, read with viem after a transfer. coreth's miner
 * (graft/coreth/miner/worker.go) makes the header from ParentHash, Number, Time only, then: the dummy engine's Prepare
 * sets `Difficulty = 1` (consensus/dummy/consensus.go), MixDigest is never set (the zero hash), Cancun's
 * `ParentBeaconRoot = w.beaconRoot`, which is `&common.Hash{}` (the zero hash), and `Extra` is
 * customheader.ExtraPrefix's: after Fortuna the ACP-176 fee state's bytes (plugin/evm/customheader/extra.go,
 * vms/evm/acp176 State.Bytes: capacity, excess, target excess, 3 × 8 bytes), then, since Durango, the predicate
 * results miner/worker.go commit appends: an empty predicate.BlockResults, the codec's version and a 0-entry map
 * (6 zero bytes). `local` has every upgrade at genesis.
 * The block's JSON is internal/ethapi/api.go RPCMarshalHeader + RPCMarshalBlock + rpcMarshalBlock: no
 * `withdrawalsRoot` (a coreth header has no WithdrawalsHash) and no `withdrawals`.
 */
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cClients } from './c-clients.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const ZERO_HASH = `0x${'00'.repeat(32)}`;

interface RawHeader {
  difficulty: string;
  mixHash: string;
  parentBeaconBlockRoot?: string;
  extraData: string;
}

async function builtBlock() {
  const { pub, wallet } = cClients(node.url);
  const hash = await wallet.sendTransaction({
    to: '0x00000000000000000000000000000000000000e1',
    value: parseEther('1'),
  });
  const receipt = await pub.waitForTransactionReceipt({ hash });
  const raw = (await pub.request({
    method: 'eth_getBlockByNumber',
    params: [`0x${receipt.blockNumber.toString(16)}`, false],
  })) as unknown as RawHeader;
  return { raw, block: await pub.getBlock({ blockNumber: receipt.blockNumber }) };
}

describe("a built C-Chain block's header is coreth's", () => {
  it('difficulty is 1 (the dummy engine)', async () => {
    const { block } = await builtBlock();
    expect(block.difficulty).toBe(1n);
  });

  it('mixHash is the zero hash (the miner never sets it)', async () => {
    const { block } = await builtBlock();
    expect(block.mixHash).toBe(ZERO_HASH);
  });

  it("parentBeaconBlockRoot is the zero hash (the miner's beaconRoot)", async () => {
    const { raw } = await builtBlock();
    expect(raw.parentBeaconBlockRoot).toBe(ZERO_HASH);
  });

  it("the block's fields are RPCMarshalBlock's: no withdrawals, no withdrawalsRoot", async () => {
    const { raw } = await builtBlock();
    expect(Object.keys(raw).sort()).toEqual(
      [
        'number',
        'hash',
        'parentHash',
        'nonce',
        'mixHash',
        'sha3Uncles',
        'logsBloom',
        'stateRoot',
        'miner',
        'difficulty',
        'extraData',
        'gasLimit',
        'gasUsed',
        'timestamp',
        'transactionsRoot',
        'receiptsRoot',
        'extDataHash',
        'baseFeePerGas',
        'extDataGasUsed',
        'blockGasCost',
        'blobGasUsed',
        'excessBlobGas',
        'parentBeaconBlockRoot',
        'timestampMilliseconds',
        'minDelayExcess',
        'size',
        'blockExtraData',
        'transactions',
        'uncles',
        'totalDifficulty',
      ].sort(),
    );
  });

  it('extraData is the ACP-176 fee state (24 bytes) and the empty predicate results (6 bytes)', async () => {
    const { block } = await builtBlock();
    expect((block.extraData.length - 2) / 2).toBe(30);
    expect(block.extraData.slice(-12)).toBe('0x000000000000'.slice(2));
  });
});
