/**
 * The C-Chain's blocks named by coreth's hashes: keccak-256 of coreth's header (graft/coreth plugin/evm/customtypes
 * HeaderSerializable) of the fields the mock answers, each block's parentHash its parent's, in every answer that names a
 * block and every request that takes one. The headers are encoded here with viem's RLP, apart from the mock's encoder,
 * which is checked against coreth's own vectors.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type Hex, toRlp } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { headerHash } from '../../mock/cchain/blocks.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { startMockNode as startPackagedNode } from '../../mock/package/index.ts';
import { rpcResult } from '../support/rpc.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

type Fields = Record<string, Hex | undefined>;

const rpc = <T = Fields>(url: string, method: string, params: unknown[]) =>
  rpcResult<T>(`${url}/ext/bc/C/rpc`, method, params);

const keccak = (bytes: Hex): Hex => `0x${Buffer.from(keccak_256(Buffer.from(bytes.slice(2), 'hex'))).toString('hex')}`;
/** A quantity as RLP takes it: minimal big-endian bytes, zero empty. */
const quantity = (value: Hex | undefined): Hex => {
  const n = BigInt(value ?? '0x0');
  if (n === 0n) return '0x';
  const digits = n.toString(16);
  return `0x${digits.length % 2 ? '0' : ''}${digits}`;
};
const ETHEREUM = ['parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom'];
const NUMBERS = ['difficulty', 'number', 'gasLimit', 'gasUsed', 'timestamp'];
/** coreth's optional fields after ExtDataHash, and which are byte strings rather than quantities. */
const OPTIONAL = [
  'baseFeePerGas',
  'extDataGasUsed',
  'blockGasCost',
  'blobGasUsed',
  'excessBlobGas',
  'parentBeaconBlockRoot',
  'timestampMilliseconds',
  'minDelayExcess',
];

/** The fields both headers start with, to the nonce, as RLP items. */
const toNonce = (header: Fields): Hex[] => [
  ...ETHEREUM.map((k) => header[k]!),
  ...NUMBERS.map((k) => quantity(header[k])),
  header.extraData!,
  header.mixHash!,
  header.nonce!,
];

/** coreth's Header.Hash of a header as answered: written up to its last optional field, an unset one before as empty. */
function corethHash(header: Fields): Hex {
  const items = [...toNonce(header), header.extDataHash!];
  const set = OPTIONAL.filter((k) => header[k] !== undefined);
  const last = set.length === 0 ? -1 : OPTIONAL.indexOf(set.at(-1)!);
  for (const k of OPTIONAL.slice(0, last + 1))
    items.push(k === 'parentBeaconBlockRoot' ? (header[k] ?? '0x') : quantity(header[k]));
  return keccak(toRlp(items));
}

const word = (first: number, length = 32): Hex => `0x${first.toString(16).padStart(2, '0')}${'00'.repeat(length - 1)}`;
const ZERO = word(0);

describe("coreth's block hash", () => {
  it("is coreth's for its header of every field (customtypes TestHeaderRLP), the withdrawals root left out", () => {
    const header = {
      parentHash: word(1),
      sha3Uncles: word(2),
      miner: word(3, 20),
      stateRoot: word(4),
      transactionsRoot: word(5),
      receiptsRoot: word(6),
      logsBloom: word(7, 256),
      difficulty: '0x8',
      number: '0x9',
      gasLimit: '0xa',
      gasUsed: '0xb',
      timestamp: '0xc',
      extraData: '0x0d',
      mixHash: word(14),
      nonce: word(15, 8),
      baseFeePerGas: '0x10',
      withdrawalsRoot: word(17),
      blobGasUsed: '0x12',
      excessBlobGas: '0x13',
      parentBeaconBlockRoot: word(20),
      extDataHash: word(21),
      extDataGasUsed: '0x16',
      blockGasCost: '0x17',
      timestampMilliseconds: '0x18',
      minDelayExcess: '0x19',
    } as const;
    const want = '0xbe13d7b6f1242dd87477eee76a46f9fa58311bf459e0d49cac6862b187b3fe9c';
    expect(headerHash(header)).toBe(want);
    expect(corethHash(header)).toBe(want);
  });

  it('is the Mainnet and Fuji C-Chain genesis hash for their genesis header', () => {
    const genesis = {
      parentHash: ZERO,
      sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
      miner: word(0, 20),
      stateRoot: '0xd65eb1b8604a7aa497d41cd6372663785a5f809a17bd192edb86658ef24e29cc',
      transactionsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      receiptsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      logsBloom: word(0, 256),
      difficulty: '0x0',
      number: '0x0',
      gasLimit: '0x5f5e100',
      gasUsed: '0x0',
      timestamp: '0x0',
      extraData: '0x00',
      mixHash: ZERO,
      nonce: word(0, 8),
      extDataHash: ZERO,
    } as const;
    expect(headerHash(genesis)).toBe('0x31ced5b9beb7f8782b014660da0cb18cc409f121f408186886e1ca3e8eeca96b');
  });
});

/** viem deploys the contract, then sets its value, which it logs: a block each. */
async function deployAndSet(url: string, value: bigint) {
  const { pub, wallet } = cClients(url);
  const deployed = await pub.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi: ABI, bytecode: BYTECODE }),
  });
  const hash = await wallet.writeContract({
    address: deployed.contractAddress!,
    abi: ABI,
    functionName: 'set',
    args: [value],
  });
  return { deployed, hash, receipt: await pub.waitForTransactionReceipt({ hash }) };
}

describe("the C-Chain's blocks by coreth's hashes", () => {
  it('answers every block under the hash of its answered header, chained from the genesis', async () => {
    node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    const { pub, wallet } = cClients(node.url);
    const { deployed, hash, receipt } = await deployAndSet(node.url, 7n);
    await node.dev.mine({ chain: 'C', blocks: 2 });

    const height = Number(await rpc<Hex>(node.url, 'eth_blockNumber', []));
    let parent: Fields | undefined;
    for (let n = 0; n <= height; n++) {
      const block = await rpc(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
      expect(block.hash).toBe(corethHash(block));
      expect(block.parentHash).toBe(parent?.hash ?? ZERO);
      // coreth's header, not the engine's: difficulty 1 (the genesis file's 0), the zero mixHash, no withdrawals root.
      expect([block.difficulty, block.mixHash, block.withdrawalsRoot]).toEqual([
        n === 0 ? '0x0' : '0x1',
        ZERO,
        undefined,
      ]);
      expect(await rpc(node.url, 'eth_getBlockByHash', [block.hash, false])).toEqual(block);
      const header = await rpc(node.url, 'eth_getHeaderByHash', [block.hash]);
      expect(header.hash).toBe(block.hash);
      parent = block;
    }

    // viem reads the block, then the same block by its hash; the transaction, receipt and log name it alike.
    const block = await pub.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true });
    expect(await pub.getBlock({ blockHash: block.hash, includeTransactions: true })).toEqual(block);
    expect(receipt.blockHash).toBe(block.hash);
    expect(block.transactions[0]!.blockHash).toBe(block.hash);
    expect((await pub.getTransaction({ hash })).blockHash).toBe(block.hash);
    expect((await pub.getTransaction({ blockHash: block.hash, index: 0 })).hash).toBe(hash);
    expect(await pub.getBlockTransactionCount({ blockHash: block.hash })).toBe(1);
    expect(receipt.logs[0]!.blockHash).toBe(block.hash);
    const logs = await pub.getLogs({ blockHash: block.hash });
    expect(logs.map((log) => [log.blockHash, log.transactionHash])).toEqual([[block.hash, hash]]);
    const receipts = await rpc<Array<{ blockHash: Hex }>>(node.url, 'eth_getBlockReceipts', [block.hash]);
    expect(receipts.map((r) => r.blockHash)).toEqual([block.hash]);
    expect(await rpc(node.url, 'eth_getBlockReceipts', [{ blockHash: block.hash }])).toEqual(receipts);

    // EIP-1898: state read at a block named by its hash.
    const before = { blockHash: block.parentHash };
    const at = { blockHash: block.hash };
    const get = (blockTag: object) =>
      rpc<Hex>(node!.url, 'eth_call', [{ to: deployed.contractAddress, data: '0x6d4ce63c' }, blockTag]);
    expect(BigInt(await get(at))).toBe(7n);
    expect(BigInt(await get(before))).toBe(0n);
    // coreth reads a bare hash there as the block's hash too.
    expect(await rpc(node.url, 'eth_getCode', [deployed.contractAddress, block.hash])).toBe(
      await rpc(node.url, 'eth_getCode', [deployed.contractAddress, 'latest']),
    );
    const balance = await rpc<Hex>(node.url, 'eth_getBalance', [wallet.account.address, at]);
    expect(balance).toBe(
      await rpc<Hex>(node.url, 'eth_getBalance', [wallet.account.address, `0x${block.number.toString(16)}`]),
    );
  });

  it("names blocks by coreth's hashes in filters, over the WebSocket, and after a revert and a saved state", async () => {
    node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    const { url } = node;
    const socket = new WebSocket(`${url.replace('http', 'ws')}/ext/bc/C/ws`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const notes: Array<{ subscription: string; result: Fields }> = [];
    const answers = new Map<number, unknown>();
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.method === 'eth_subscription') notes.push(message.params);
      else answers.set(message.id, message.result);
    });
    const call = (id: number, method: string, params: unknown[]) =>
      new Promise<unknown>((resolve) => {
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
        const wait = () => (answers.has(id) ? resolve(answers.get(id)) : setImmediate(wait));
        wait();
      });
    const heads = await call(1, 'eth_subscribe', ['newHeads']);
    const logs = await call(2, 'eth_subscribe', ['logs', {}]);
    const filter = await rpc<Hex>(url, 'eth_newBlockFilter', []);

    const {
      receipt: { blockHash },
    } = await deployAndSet(url, 1n);
    await node.dev.mine({ chain: 'C' });
    const latest = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);
    await call(3, 'eth_blockNumber', []);

    const byHash = await Promise.all(
      [1, 2, 3].map((n) => rpc(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])),
    );
    expect(await rpc<Hex[]>(url, 'eth_getFilterChanges', [filter])).toEqual(byHash.map((b) => b.hash));
    const headNotes = notes.filter((n) => n.subscription === heads).map((n) => n.result);
    expect(headNotes.map((h) => [h.hash, h.parentHash])).toEqual(byHash.map((b) => [b.hash, b.parentHash]));
    for (const head of headNotes) expect(head.hash).toBe(corethHash(head));
    const logNotes = notes.filter((n) => n.subscription === logs).map((n) => n.result);
    expect(logNotes.map((l) => l.blockHash)).toEqual([blockHash]);
    socket.close();

    // A revert drops the later blocks' hashes; the chain that grows again is named by its own.
    const { snapshotID } = await node.dev.snapshot();
    await node.dev.mine({ chain: 'C', blocks: 2 });
    const dropped = await rpc(url, 'eth_getBlockByNumber', [`0x${(BigInt(latest.number!) + 1n).toString(16)}`, false]);
    await node.dev.revert({ snapshotID });
    // Moving the time builds a block at it: another than the one dropped at its height.
    await node.dev.setTime({ timestamp: String(BigInt(latest.timestamp!) + 100n) });
    const regrown = await rpc(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(regrown.number).toBe(dropped.number);
    expect(regrown.parentHash).toBe(latest.hash);
    expect(regrown.hash).toBe(corethHash(regrown));
    expect(await rpc(url, 'eth_getBlockByHash', [dropped.hash, false])).toBeNull();
    expect((await rpc(url, 'eth_getBlockByHash', [regrown.hash, false]))?.number).toBe(regrown.number);

    // A saved state replays into the same hashes.
    const { state } = node.state.dev.dumpState();
    const other = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    try {
      other.state.dev.loadState({ state });
      expect(await rpc(other.url, 'eth_getBlockByNumber', ['latest', false])).toEqual(regrown);
      expect(await rpc(other.url, 'eth_getBlockByHash', [blockHash, false])).toMatchObject({ hash: blockHash });
    } finally {
      await other.close();
    }
  });

  it("builds a fork's blocks on the source's, by the source's hash", async () => {
    const source = await startPackagedNode({ accounts: 2, seed: 'hash source' });
    const to = `0x${'5a'.repeat(20)}`;
    await source.wallet(1).send('C', to, 1n);
    await source.wallet(1).send('C', to, 1n);
    const fork = await startPackagedNode({
      accounts: 1,
      seed: 'hash fork',
      fork: { url: source.url, cacheDir: false },
    });
    try {
      const forkPoint = await rpc(source.url, 'eth_getBlockByNumber', ['0x2', false]);
      const hash = await fork.wallet(0).send('C', to, 1n);
      const { blockHash } = await rpc<{ blockHash: Hex }>(fork.url, 'eth_getTransactionReceipt', [hash]);
      const block = await rpc(fork.url, 'eth_getBlockByHash', [blockHash, false]);
      expect([block.number, block.hash, block.parentHash]).toEqual(['0x3', corethHash(block), forkPoint.hash]);
      expect((await rpc(fork.url, 'eth_getBlockByNumber', ['0x2', false])).hash).toBe(forkPoint.hash);
    } finally {
      await fork.close();
      await source.close();
    }
  });
});
