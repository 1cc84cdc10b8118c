/**
 * eth_getProof as a light client or a bridge relayer checks it: viem's getProof of an account and a slot, walked down
 * the Merkle-Patricia trie from the block's `stateRoot` (what coreth's header commits to, core/types.Header.Root)
 * to the account's RLP and the slot's value. On coreth every block's root is the state after all it did, its atomic
 * txs (EVMStateTransfer) and the fees the coinbase receives included; the mock sets those outside the engine's block,
 * so its header must name the state as edited: after transfers of each type, a contract's write, an atomic export
 * and import, a block of several transactions, a mined empty block, and a saved state replayed.
 */
import { Context, TransferableOutput, addTxSignatures, evm, pvm, secp256k1, utils } from '@avalabs/avalanchejs';
import { RLP } from '@ethereumjs/rlp';
import { sha256 } from '@noble/hashes/sha2.js';
import { type Hex, bytesToHex, hexToBigInt, keccak256, pad, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { ABI, BYTECODE, cClients, exportEwoqToP } from './c-clients.ts';
import { EWOQ, ewoq } from './sdk-world.ts';

type Node = Uint8Array | Node[];
const COINBASE: Hex = '0x0100000000000000000000000000000000000000';
const EMPTY_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';

/** The nibbles of a hex-prefix encoded path (the first nibble's flag says odd length) and whether it ends a leaf. */
function hexPrefix(encoded: Uint8Array): { nibbles: number[]; leaf: boolean } {
  const all = [...encoded].flatMap((byte) => [byte >> 4, byte & 15]);
  const flag = all[0]!;
  return { nibbles: all.slice(flag & 1 ? 1 : 2), leaf: flag >= 2 };
}

/**
 * The value a proof holds under keccak(key), each node checked to hash to the reference its parent holds (the first
 * to `root`); undefined when the proof shows the key absent. Throws when a node does not match.
 */
function verifyProof(root: Hex, key: Hex, proof: Hex[]): Uint8Array | undefined {
  const path = [...Buffer.from(keccak256(key).slice(2), 'hex')].flatMap((byte) => [byte >> 4, byte & 15]);
  let expected: Hex | Node = root;
  let at = 0;
  for (const [i, encoded] of proof.entries()) {
    const bytes = Buffer.from(encoded.slice(2), 'hex');
    // A node under 32 bytes is embedded in its parent, not referenced by hash.
    if (Array.isArray(expected)) expect(RLP.encode(expected), `node ${i}`).toEqual(Uint8Array.from(bytes));
    else expect(keccak256(bytes), `node ${i}`).toBe(expected);
    const node = RLP.decode(bytes) as Node[];
    if (node.length === 17) {
      if (at === path.length) return (node[16] as Uint8Array).length ? (node[16] as Uint8Array) : undefined;
      const child = node[path[at++]!]!;
      if (!Array.isArray(child) && child.length === 0) return undefined;
      expected = Array.isArray(child) ? child : bytesToHex(child);
      continue;
    }
    const { nibbles, leaf } = hexPrefix(node[0] as Uint8Array);
    const matches = nibbles.every((nibble, j) => path[at + j] === nibble);
    if (!matches) return undefined;
    at += nibbles.length;
    if (leaf) return node[1] as Uint8Array;
    const child = node[1]!;
    expected = Array.isArray(child) ? child : bytesToHex(child);
  }
  throw new Error('the proof stops before the key');
}

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

/** Checks viem's proof of `address` (and `slots`) at block `blockNumber` against that block's header. */
async function checkProof(blockNumber: bigint, address: Hex, slots: Hex[] = [], url = node.url) {
  const { pub } = cClients(url);
  const block = await pub.getBlock({ blockNumber });
  const proof = await pub.getProof({ address, storageKeys: slots, blockNumber });
  const account = verifyProof(block.stateRoot, address, proof.accountProof);
  expect(account, `${address} at ${blockNumber}`).toBeDefined();
  const [nonce, balance, storageHash, codeHash] = RLP.decode(account!) as Uint8Array[];
  const big = (bytes: Uint8Array) => (bytes.length ? hexToBigInt(bytesToHex(bytes)) : 0n);
  expect(big(nonce!)).toBe(BigInt(proof.nonce));
  expect(big(balance!)).toBe(proof.balance);
  expect(big(balance!)).toBe(await pub.getBalance({ address, blockNumber }));
  expect(bytesToHex(storageHash!)).toBe(proof.storageHash);
  expect(bytesToHex(codeHash!)).toBe(proof.codeHash);
  for (const { key, value, proof: storageProof } of proof.storageProof) {
    // An account without storage has no storage trie to prove a key in (GetProof: an empty proof).
    if (storageProof.length === 0) expect(proof.storageHash).toBe(EMPTY_ROOT);
    const held = storageProof.length ? verifyProof(proof.storageHash, pad(key as Hex), storageProof) : undefined;
    expect(held ? big(RLP.decode(held) as Uint8Array) : 0n).toBe(value);
    expect(value).toBe(hexToBigInt((await pub.getStorageAt({ address, slot: key as Hex, blockNumber }))!));
  }
  return block;
}

describe('eth_getProof against the block’s stateRoot', () => {
  it('verifies the sender, the recipient and the coinbase after legacy, EIP-2930 and EIP-1559 transfers', async () => {
    const { pub, wallet, account } = cClients(node.url);
    const to: Hex = '0x000000000000000000000000000000000000dEaD';
    const hashes = [
      await wallet.sendTransaction({ to, value: 1n, type: 'legacy' }),
      await wallet.sendTransaction({ to, value: 2n, type: 'eip2930', accessList: [{ address: to, storageKeys: [] }] }),
      await wallet.sendTransaction({ to, value: 3n, type: 'eip1559' }),
    ];
    for (const hash of hashes) {
      const { blockNumber } = await pub.waitForTransactionReceipt({ hash });
      for (const address of [account.address, to, COINBASE]) await checkProof(blockNumber, address);
    }
    // The coinbase holds every fee, base fee included, as coreth pays it.
    expect(await pub.getBalance({ address: COINBASE })).toBeGreaterThan(0n);
  });

  it("verifies a contract's code hash and a slot it wrote", async () => {
    const { pub, wallet } = cClients(node.url);
    const deployed = await pub.waitForTransactionReceipt({
      hash: await wallet.deployContract({ abi: ABI, bytecode: BYTECODE }),
    });
    const address = deployed.contractAddress!;
    const set = await pub.waitForTransactionReceipt({
      hash: await wallet.writeContract({ address, abi: ABI, functionName: 'set', args: [42n] }),
    });
    await checkProof(set.blockNumber, address, [toHex(0, { size: 32 }), toHex(1, { size: 32 })]);
    const proof = await pub.getProof({ address, storageKeys: [toHex(0, { size: 32 })] });
    expect(proof.storageProof[0]!.value).toBe(42n);
    expect(proof.codeHash).toBe(keccak256((await pub.getCode({ address }))!));
  });

  it('verifies the accounts an atomic export from C and an import to C changed, in their blocks', async () => {
    const { pub, account } = cClients(node.url);
    const exported = await exportEwoqToP(node.url);
    const exportID = utils.base58check.encode(sha256(exported.toBytes()));
    const status = await new evm.EVMApi(node.url).getAtomicTxStatus(exportID);
    const exportBlock = BigInt(status.blockHeight!);
    await checkProof(exportBlock, account.address);
    await checkProof(exportBlock, COINBASE);

    // P → C: an export from P to a fresh key's C address, imported into its EVM account.
    const ctx = await Context.getContextFromURI(node.url);
    const secret = secp256k1.randomPrivateKey();
    const publicKey = secp256k1.getPublicKey(secret);
    const short = secp256k1.publicKeyBytesToAddress(publicKey);
    const to = bytesToHex(secp256k1.publicKeyToEthAddress(publicKey));
    const p = new pvm.PVMApi(node.url);
    const fromP = pvm.newExportTx(
      {
        feeState: await p.getFeeState(),
        fromAddressesBytes: [ewoq],
        destinationChainId: ctx.cBlockchainID,
        utxos: (await p.getUTXOs({ addresses: [`P-${utils.formatBech32(ctx.hrp, ewoq)}`] })).utxos,
        outputs: [TransferableOutput.fromNative(ctx.avaxAssetID, 5_000_000_000n, [short])],
      },
      ctx,
    );
    await addTxSignatures({ unsignedTx: fromP, privateKeys: [EWOQ] });
    await p.issueSignedTx(fromP.getSignedTx());
    const c = new evm.EVMApi(node.url);
    const { utxos } = await c.getUTXOs({ addresses: [`C-${utils.formatBech32(ctx.hrp, short)}`], sourceChain: 'P' });
    const baseFee = (await c.getBaseFee()) / 1_000_000_000n + 1n;
    const imported = evm.newImportTxFromBaseFee(ctx, utils.hexToBuffer(to), [short], utxos, ctx.pBlockchainID, baseFee);
    await addTxSignatures({ unsignedTx: imported, privateKeys: [secret] });
    const { txID } = await c.issueSignedTx(imported.getSignedTx());
    const importBlock = BigInt((await c.getAtomicTxStatus(txID)).blockHeight!);
    const block = await checkProof(importBlock, to);
    expect(await pub.getBalance({ address: to, blockNumber: importBlock })).toBeGreaterThan(0n);
    expect(block.transactions).toEqual([]);
  });

  it('verifies a block of several transactions, and an empty block mined after it', async () => {
    const { pub, wallet, account } = cClients(node.url);
    node.state.dev.setAutomine({ enabled: false });
    try {
      const nonce = await pub.getTransactionCount({ address: account.address });
      const to: Hex = '0x0000000000000000000000000000000000000b0b';
      for (let i = 0; i < 3; i++) await wallet.sendTransaction({ to, value: 1n, nonce: nonce + i });
      await node.state.dev.mine({ chain: 'C', blocks: 2 });
    } finally {
      node.state.dev.setAutomine({ enabled: true });
    }
    const latest = await pub.getBlockNumber();
    expect((await pub.getBlock({ blockNumber: latest - 1n })).transactions).toHaveLength(3);
    for (const blockNumber of [latest - 1n, latest])
      for (const address of [account.address, COINBASE]) await checkProof(blockNumber, address);
  });

  it('answers an account without storage with an empty proof per key, and one the state lacks with zero hashes', async () => {
    const { pub, account } = cClients(node.url);
    const slot = toHex(0, { size: 32 });
    // GetProof proves no key of an account whose storage root is the empty one: each proof is [].
    const eoa = await pub.getProof({ address: account.address, storageKeys: [slot, '0x1'] });
    expect(eoa.storageProof.map(({ key, value, proof }) => [key, value, proof])).toEqual([
      [slot, 0n, []],
      ['0x1', 0n, []],
    ]);
    // StateDB.GetCodeHash and GetStorageRoot of an account the state does not hold: the zero hash.
    const nobody: Hex = '0x00000000000000000000000000000000000077ab';
    const absent = await pub.getProof({ address: nobody, storageKeys: [slot] });
    const zero = `0x${'0'.repeat(64)}`;
    expect([absent.balance, absent.nonce, absent.codeHash, absent.storageHash]).toEqual([0n, 0, zero, zero]);
    expect(absent.storageProof).toEqual([{ key: slot, value: 0n, proof: [] }]);
    const { stateRoot } = await pub.getBlock();
    expect(verifyProof(stateRoot, nobody, absent.accountProof)).toBeUndefined();
  });

  it('verifies every block of a saved state replayed into another node, under the same hashes', async () => {
    const { pub } = cClients(node.url);
    const latest = await pub.getBlockNumber();
    const { state } = node.state.dev.dumpState();
    const other = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    try {
      other.state.dev.loadState({ state });
      const replayed = cClients(other.url).pub;
      for (let n = 1n; n <= latest; n++) {
        const block = await checkProof(n, COINBASE, [], other.url);
        expect(block.hash).toBe((await pub.getBlock({ blockNumber: n })).hash);
        expect((await replayed.getBlock({ blockNumber: n })).stateRoot).toBe(block.stateRoot);
      }
    } finally {
      await other.close();
    }
  });
});
