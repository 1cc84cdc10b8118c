/**
 * `encoding: "json"` of getTx, getBlock and getBlockByHeight, from the world's bytes: Go's field names and order
 * (vms/avm/txs, vms/platformvm/txs, vms/components/avax, vms/secp256k1fx json tags), bare 64-bit integers written
 * exactly, addresses with the chain's alias and HRP, `fxID`s, credentials, the block's `txs`; for every kind of
 * transaction the engine accepts, built and signed by avalanchejs 5.2.0.
 */
import {
  TransferableOutput,
  type UnsignedTx,
  Utxo,
  addTxSignatures,
  avm,
  pvm,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, send } from '../support/rpc.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { bech32Encode, cb58Encode } from '../../generators/formats.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { FX_IDS } from '../../mock/world/networks.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import { xChainReads } from '../../mock/world/reads-x.ts';
import type { UtxoChain } from '../../mock/world/types.ts';
import type { World } from '../../mock/world/world.ts';
import { proofOfPossession } from '../../mock/engine/bls.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';

/** A Primary Network validator must register a BLS key with its proof of possession (the node's signer check). */
const blsSigner = (() => {
  const { publicKey, proof } = proofOfPossession(new Uint8Array(32).fill(11));
  return { publicKey, signature: proof };
})();

const recipient = new Uint8Array(20).fill(9);
const AVAX = 1_000_000_000n;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const SECP = FX_IDS[0]!;

const feeState = (w: World) => {
  const { capacity, excess } = w.feeState.get();
  const price = gasPrice(w.config.fee.minPrice, excess, w.config.fee.excessConversionConstant);
  return { capacity, excess, price, timestamp: new Date().toISOString() };
};

/** The text of a read's raw answer, and the answer parsed (numbers past 2^53 lose digits there: read the text). */
function answer(read: ((p: Record<string, unknown>) => unknown) | undefined, params: Record<string, unknown>) {
  const raw = read!(params) as { json: string };
  // biome-ignore lint/suspicious/noExplicitAny: the answers are read by path in the assertions
  return { text: raw.json, value: JSON.parse(raw.json) as Record<string, any> };
}

/** Every key path of a JSON value, in order (`a.b`, `a.c[].d`): the shape, without the values. */
function shape(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.length === 0 ? [`${path}[]`] : shape(value[0], `${path}[]`);
  if (value === null || typeof value !== 'object') return [path];
  return Object.entries(value).flatMap(([key, child]) => [`${path}.${key}`, ...shape(child, `${path}.${key}`)]);
}

const exampleOf = (file: string, name?: string) => {
  const method = JSON.parse(readFileSync(new URL(`../../openrpc/methods/${file}`, import.meta.url), 'utf8'));
  const example = method.examples.find((e: { name: string }) => !name || e.name === name);
  return example.result.value;
};

describe('the node JSON form, from the world', () => {
  let world: World;
  let engine: Engine;
  const issued: Record<string, { chain: UtxoChain; id: string }> = {};
  const manager = (chain: UtxoChain) => utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');
  const utxosOf = (chain: UtxoChain, owner: Uint8Array) =>
    world.utxosOf(chain, hex(owner)).map((u) => manager(chain).unpack(u.bytes, Utxo));
  /** Signs the inputs, and with `auth` the subnet owner's authorization (the last credential). */
  const issue = async (name: string, chain: UtxoChain, unsigned: UnsignedTx, auth = false) => {
    await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
    if (auth) unsigned.credentials.at(-1)!.setSignature(0, await secp256k1.sign(unsigned.toBytes(), EWOQ));
    issued[name] = { chain, id: engine.issue(chain, unsigned.getSignedTx().toBytes()) };
  };

  beforeAll(async () => {
    world = buildWorld({ network: 'local', accounts: 0 });
    engine = new Engine(world);
    const ctx = sdkContext(world);
    const pay = (amount: bigint, to = recipient) => [TransferableOutput.fromNative(ctx.avaxAssetID, amount, [to])];
    await issue('xBase', 'X', avm.newBaseTx(ctx, [ewoq], utxosOf('X', ewoq), pay(3n * AVAX)));
    await issue(
      'xExport',
      'X',
      avm.newExportTx(ctx, world.chainIDs.P, [ewoq], utxosOf('X', ewoq), pay(50n * AVAX, ewoq)),
    );
    const atomic = world
      .atomicUtxosOf(world.chainIDs.P, world.chainIDs.X, hex(ewoq))
      .map((u) => manager('P').unpack(u.bytes, Utxo));
    const fromP = () => ({ feeState: feeState(world), fromAddressesBytes: [ewoq], utxos: utxosOf('P', ewoq) });
    await issue(
      'pImport',
      'P',
      pvm.newImportTx({ ...fromP(), sourceChainId: world.chainIDs.X, toAddressesBytes: [ewoq], utxos: atomic }, ctx),
    );
    await issue('pBase', 'P', pvm.newBaseTx({ ...fromP(), outputs: pay(AVAX) }, ctx));
    await issue(
      'pExport',
      'P',
      pvm.newExportTx({ ...fromP(), destinationChainId: world.chainIDs.X, outputs: pay(2n * AVAX) }, ctx),
    );
    await issue('pSubnet', 'P', pvm.newCreateSubnetTx({ ...fromP(), subnetOwners: [ewoq] }, ctx));
    const subnetId = issued.pSubnet!.id;
    await issue(
      'pChain',
      'P',
      pvm.newCreateChainTx(
        {
          ...fromP(),
          chainName: 'mychain',
          subnetId,
          vmId: world.chainIDs.X,
          fxIds: [],
          genesisData: { hello: 'world' },
          subnetAuth: [0],
        },
        ctx,
      ),
      true,
    );
    const staking = world.config.staking;
    const nodeId = `NodeID-${cb58Encode(new Uint8Array(20).fill(42))}`;
    const start = world.time.get();
    const end = start + staking.minStakeDuration * 2n;
    const owner = new Uint8Array(20).fill(77);
    await issue(
      'pValidator',
      'P',
      pvm.newAddPermissionlessValidatorTx(
        {
          ...fromP(),
          nodeId,
          subnetId: world.chainIDs.P,
          start,
          end,
          weight: staking.minValidatorStake,
          ...blsSigner,
          rewardAddresses: [owner],
          delegatorRewardsOwner: [owner],
          shares: 20_000,
        },
        ctx,
      ),
    );
    await issue(
      'pDelegator',
      'P',
      pvm.newAddPermissionlessDelegatorTx(
        {
          ...fromP(),
          nodeId,
          subnetId: world.chainIDs.P,
          start,
          end,
          weight: staking.minDelegatorStake,
          rewardAddresses: [recipient],
        },
        ctx,
      ),
    );
    await issue(
      'pSubnetValidator',
      'P',
      pvm.newAddSubnetValidatorTx(
        { ...fromP(), nodeId, subnetId, start, end: start + staking.minStakeDuration, weight: 1n, subnetAuth: [0] },
        ctx,
      ),
      true,
    );
    await issue(
      'pRemove',
      'P',
      pvm.newRemoveSubnetValidatorTx({ ...fromP(), nodeId, subnetId, subnetAuth: [0] }, ctx),
      true,
    );
    await issue(
      'pTransfer',
      'P',
      pvm.newTransferSubnetOwnershipTx({ ...fromP(), subnetId, subnetAuth: [0], subnetOwners: [recipient] }, ctx),
      true,
    );
  });

  const getTx = (name: string) => {
    const { chain, id } = issued[name]!;
    return answer((chain === 'X' ? xChainReads(world, TX_TYPES) : pChainReads(world, TX_TYPES)).getTx, {
      txID: id,
      encoding: 'json',
    });
  };

  it('answers every accepted kind of transaction with its ID, the hash of its bytes', () => {
    expect(Object.keys(issued)).toHaveLength(12);
    for (const [name, { chain, id }] of Object.entries(issued)) {
      const { value } = getTx(name);
      expect(value.encoding).toBe('json');
      expect(value.tx.id).toBe(id);
      expect(cb58Encode(createHash('sha256').update(world.txs.get(id)!.bytes).digest())).toBe(id);
      expect(value.tx.unsignedTx.networkID).toBe(12345);
      expect(value.tx.unsignedTx.blockchainID).toBe(world.chainIDs[chain]);
      expect(value.tx.credentials.length).toBeGreaterThan(0);
    }
  });

  it("writes an X export with the fields, order and fxIDs of the spec's real node example", () => {
    const { value } = getTx('xExport');
    const example = exampleOf('avm/getTx.json', 'json').tx;
    const tx = value.tx;
    expect(Object.keys(tx)).toEqual(Object.keys(example));
    expect(Object.keys(tx.unsignedTx)).toEqual(Object.keys(example.unsignedTx));
    for (const list of ['inputs', 'exportedOutputs'])
      expect(shape(tx.unsignedTx[list][0])).toEqual(shape(example.unsignedTx[list][0]));
    expect(shape(tx.unsignedTx.outputs[0])).toEqual(shape(example.unsignedTx.exportedOutputs[0]));
    expect(shape(tx.credentials)).toEqual(shape(example.credentials));
    expect(tx.unsignedTx.destinationChain).toBe(world.chainIDs.P);
    expect(tx.unsignedTx.exportedOutputs[0]).toEqual({
      assetID: world.network.avaxAssetID,
      fxID: SECP,
      output: { addresses: [`X-${bech32Encode('local', ewoq)}`], amount: 50_000_000_000, locktime: 0, threshold: 1 },
    });
    expect(tx.credentials[0].fxID).toBe(SECP);
    expect(tx.credentials[0].credential.signatures[0]).toMatch(/^0x[0-9a-f]{130}$/);
    expect(tx.unsignedTx.memo).toBe('0x');
  });

  it('writes 64-bit amounts as exact bare numbers (the genesis CreateAssetTx holds 3e17 nAVAX)', () => {
    const { text, value } = answer(xChainReads(world, TX_TYPES).getTx, {
      txID: world.network.avaxAssetID,
      encoding: 'json',
    });
    expect(text).toContain(`"addresses":["X-${bech32Encode('local', ewoq)}"],"amount":300000000000000000,`);
    expect(Object.keys(value.tx.unsignedTx)).toEqual([
      'networkID',
      'blockchainID',
      'outputs',
      'inputs',
      'memo',
      'name',
      'symbol',
      'denomination',
      'initialStates',
    ]);
    expect(value.tx.unsignedTx.initialStates[0]).toMatchObject({ fxIndex: 0, fxID: SECP });
    expect(value.tx.credentials).toEqual([]);
  });

  it('writes the P-Chain transactions with their own fields, P- addresses and bare credentials', () => {
    const keys = (name: string) => Object.keys(getTx(name).value.tx.unsignedTx).slice(5);
    expect(keys('pImport')).toEqual(['sourceChain', 'importedInputs']);
    expect(keys('pExport')).toEqual(['destinationChain', 'exportedOutputs']);
    expect(keys('pSubnet')).toEqual(['owner']);
    expect(keys('pChain')).toEqual(['subnetID', 'chainName', 'vmID', 'fxIDs', 'genesisData', 'subnetAuthorization']);
    expect(keys('pValidator')).toEqual([
      'validator',
      'subnetID',
      'signer',
      'stake',
      'validationRewardsOwner',
      'delegationRewardsOwner',
      'shares',
    ]);
    expect(keys('pDelegator')).toEqual(['validator', 'subnetID', 'stake', 'rewardsOwner']);
    expect(keys('pSubnetValidator')).toEqual(['validator', 'subnetAuthorization']);
    expect(keys('pRemove')).toEqual(['nodeID', 'subnetID', 'subnetAuthorization']);
    expect(keys('pTransfer')).toEqual(['subnetID', 'subnetAuthorization', 'newOwner']);

    const chain = getTx('pChain').value.tx;
    expect(Buffer.from(chain.unsignedTx.genesisData, 'base64').toString()).toBe('{"hello":"world"}');
    expect(chain.unsignedTx.subnetAuthorization).toEqual({ signatureIndices: [0] });
    expect(Object.keys(chain.credentials[0])).toEqual(['signatures']);
    const validator = getTx('pValidator').value.tx.unsignedTx;
    expect(validator.validator).toEqual({
      nodeID: `NodeID-${cb58Encode(new Uint8Array(20).fill(42))}`,
      start: Number(world.stakers.get(issued.pValidator!.id)!.startTime),
      end: Number(world.stakers.get(issued.pValidator!.id)!.endTime),
      weight: Number(world.config.staking.minValidatorStake),
    });
    // signer.ProofOfPossession.MarshalJSON: both fields as 0x-hex.
    expect(validator.signer).toEqual({
      publicKey: `0x${Buffer.from(blsSigner.publicKey).toString('hex')}`,
      proofOfPossession: `0x${Buffer.from(blsSigner.signature).toString('hex')}`,
    });
    expect(validator.validationRewardsOwner).toEqual({
      addresses: [`P-${bech32Encode('local', new Uint8Array(20).fill(77))}`],
      locktime: 0,
      threshold: 1,
    });
    expect(getTx('pSubnetValidator').value.tx.unsignedTx.validator.subnetID).toBe(issued.pSubnet!.id);
  });

  it('writes a genesis validator with its BLS signer and its stake', () => {
    const staker = [...world.stakers.values()][0]!;
    const { value } = answer(pChainReads(world, TX_TYPES).getTx, { txID: staker.txID, encoding: 'json' });
    expect(value.tx.unsignedTx.signer).toEqual(staker.signer);
    expect(value.tx.unsignedTx.stake[0].output.amount).toBe(Number(staker.weight));
  });

  it('writes each block with its header and transactions, walking from the tip to genesis by parent ID', () => {
    for (const chain of ['X', 'P'] as const) {
      const reads = chain === 'X' ? xChainReads(world, TX_TYPES) : pChainReads(world, TX_TYPES);
      let height = world.tip(chain).height;
      let expectedID = world.tip(chain).id;
      for (; height >= 0; height--) {
        const { value } = answer(reads.getBlockByHeight, { height, encoding: 'json' });
        const block = value.block;
        expect(block.id).toBe(expectedID);
        expect(block.height).toBe(height);
        expect(answer(reads.getBlock, { blockID: block.id, encoding: 'json' }).text).toBe(
          answer(reads.getBlockByHeight, { height, encoding: 'json' }).text,
        );
        const record = world.blockIDs.get(block.id)!;
        expect((block.txs ?? []).map((t: { id: string }) => t.id)).toEqual(record.txIDs);
        if (chain === 'X')
          expect(Object.keys(block)).toEqual(['parentID', 'height', 'time', 'merkleRoot', 'txs', 'id']);
        else if (height > 0) expect(Object.keys(block)).toEqual(['time', 'parentID', 'height', 'id', 'txs']);
        else expect(Object.keys(block)).toEqual(['parentID', 'height', 'id']);
        expectedID = block.parentID;
      }
      if (chain === 'P') expect(expectedID).toBe(world.network.genesisID);
    }
  });
});

describe('over HTTP', () => {
  let node: RunningMockNode;
  beforeAll(async () => {
    node = await startMockNode({ port: 0, world: { network: 'fuji', accounts: 1 } });
  });
  afterAll(() => node?.close());

  const call = async (path: string, method: string, params: object) =>
    (await send(node.url + path, { body: rpc(method, params) })).text;

  it('answers the JSON form over HTTP with the network HRP; the spec example transaction is not found', async () => {
    const w = node.world;
    const text = await call('/ext/bc/X', 'avm.getBlockByHeight', { height: 1, encoding: 'json' });
    const reply = JSON.parse(text);
    expect(reply.error).toBeUndefined();
    expect(reply.result.block.height).toBe(1);
    expect(text).toContain(`"addresses":["X-${bech32Encode('fuji', Buffer.from(w.accounts[0]!.address, 'hex'))}"]`);
    const example = exampleOf('avm/getTx.json', 'json');
    const asked = JSON.parse(await call('/ext/bc/X', 'avm.getTx', { txID: example.tx.id, encoding: 'json' }));
    expect(asked.error.message).toBe('not found');
    const p = JSON.parse(await call('/ext/bc/P', 'platform.getBlockByHeight', { height: 0, encoding: 'json' }));
    expect(p.result.block).toEqual({ parentID: w.network.genesisID, height: 0, id: w.blocks.P.at(0)!.id });
  });
});

/**
 * A block of Mainnet's P-Chain at height 1,000,001 (vms/platformvm/service.md's getBlock example, block
 * d7WYmb8VeZNHsny3EJCwMm6QA37s1EHwMxw1Y71V3FqPZ5EFG): an ApricotStandardBlock (type 3) holding one ExportTx. The
 * example's hex ends with the 4-byte checksum the node's hex encoding appends, left out here.
 */
const MAINNET_APRICOT_STANDARD =
  '00000000000309473dc99a0851a29174d84e522da8ccb1a56ac23f7b0ba79f80acce34cf576900000000000f424100000001000000120000' +
  '0001000000000000000000000000000000000000000000000000000000000000000000000000000000011c4c57e1bcb3c567f9f03caa7556' +
  '3502d1a21393173c06d9d79ea247b20e24800000000021e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff0000' +
  '00050000000338e0465f0000000100000000000000000427d4b22a2a78bcddd456742caf91b56badbff985ee19aef14573e7343fd6520000' +
  '000121e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff000000070000000338d1041f00000000000000000000' +
  '00010000000195a4467dd8f939554ea4e6501c08294386938cbf000000010000000900000001c79711c4b48dcde205b63603efef7c61773a' +
  '0eb47efb503fcebe40d21962b7c25ebd734057400a12cce9cf99aceec8462923d5d91fffe1cb908372281ed7385801';

describe('the JSON form of the P-Chain blocks the world does not build (Apricot blocks, Banff proposal blocks)', () => {
  const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
  const u32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  const u64 = (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(n);
    return b;
  };
  const VERSION = Buffer.alloc(2);

  /** Puts a block of `typeID` with `body` on top of the world's P tip, holding `txs` (signed bytes, version first). */
  function accept(
    world: World,
    typeID: number,
    body: (parent: Buffer, height: bigint) => Uint8Array[],
    txs: Uint8Array[],
  ) {
    const tip = world.tip('P');
    const parent = Buffer.from(utils.base58check.decode(tip.id));
    const bytes = Buffer.concat([VERSION, u32(typeID), ...body(parent, BigInt(tip.height + 1))]);
    for (const tx of txs) {
      const id = cb58Encode(sha(tx));
      if (!world.txs.has(id)) world.txs.set(id, { id, chain: 'P', bytes: tx, status: 'Committed' });
    }
    const id = cb58Encode(sha(bytes));
    const txIDs = txs.map((tx) => cb58Encode(sha(tx)));
    world.acceptBlock({ id, chain: 'P', height: tip.height + 1, parentID: tip.id, timestamp: 0n, txIDs, bytes });
    return answer(pChainReads(world, TX_TYPES).getBlock, { blockID: id, encoding: 'json' }).value.block;
  }

  it("reads Mainnet's Apricot standard block: its ID, header and ExportTx in the node's field order", () => {
    const world = buildWorld({ network: 'mainnet', accounts: 0 });
    const bytes = Buffer.from(MAINNET_APRICOT_STANDARD, 'hex');
    const tx = Buffer.concat([VERSION, bytes.subarray(50)]);
    const block = accept(world, 3, () => [bytes.subarray(6)], [tx]);
    expect(block.id).toBe('d7WYmb8VeZNHsny3EJCwMm6QA37s1EHwMxw1Y71V3FqPZ5EFG');
    expect(Object.keys(block)).toEqual(['parentID', 'height', 'id', 'txs']);
    expect([block.parentID, block.height]).toEqual(['5615di9ytxujackzaXNrVuWQy5y8Yrt8chPCscMr5Ku9YxJ1S', 1000001]);
    const unsigned = block.txs[0].unsignedTx;
    expect(unsigned.destinationChain).toBe('2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5');
    expect(unsigned.exportedOutputs[0].output).toEqual({
      addresses: ['P-avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c'],
      amount: 13838124063,
      locktime: 0,
      threshold: 1,
    });
    expect(unsigned.inputs[0]).toMatchObject({
      txID: 'DTqiagiMFdqbNQ62V2Gt1GddTVLkKUk2caGr4pyza9hTtsfta',
      outputIndex: 0,
    });
  });

  it('writes proposal, atomic, abort and Banff proposal blocks with their one `tx` after the header', async () => {
    const world = buildWorld({ network: 'local', accounts: 0 });
    const engine = new Engine(world);
    const ctx = sdkContext(world);
    const fromP = () => ({
      feeState: feeState(world),
      fromAddressesBytes: [ewoq],
      utxos: world.utxosOf('P', hex(ewoq)).map((u) => utils.getManagerForVM('PVM').unpack(u.bytes, Utxo)),
    });
    const signed = async (unsigned: UnsignedTx) => {
      await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
      const bytes = unsigned.getSignedTx().toBytes();
      engine.issue('P', bytes);
      return bytes;
    };
    const pay = [TransferableOutput.fromNative(ctx.avaxAssetID, AVAX, [recipient])];
    const base = await signed(pvm.newBaseTx({ ...fromP(), outputs: pay }, ctx));
    const subnet = await signed(pvm.newCreateSubnetTx({ ...fromP(), subnetOwners: [ewoq] }, ctx));
    const txJsonOf = (bytes: Uint8Array) =>
      answer(pChainReads(world, TX_TYPES).getTx, { txID: cb58Encode(sha(bytes)), encoding: 'json' }).value.tx;
    const header = (parent: Buffer, height: bigint) => [parent, u64(height)];
    const inBlock = (tx: Uint8Array) => tx.subarray(2);

    const proposal = accept(world, 0, (p, h) => [...header(p, h), inBlock(base)], [base]);
    expect(Object.keys(proposal)).toEqual(['parentID', 'height', 'id', 'tx']);
    expect(proposal.tx).toEqual(txJsonOf(base));
    const abort = accept(world, 1, header, []);
    expect(Object.keys(abort)).toEqual(['parentID', 'height', 'id']);
    expect(abort.parentID).toBe(proposal.id);
    const atomic = accept(world, 4, (p, h) => [...header(p, h), inBlock(subnet)], [subnet]);
    expect(Object.keys(atomic)).toEqual(['parentID', 'height', 'id', 'tx']);
    expect(atomic.height).toBe(abort.height + 1);

    const time = world.time.get();
    const banff = accept(world, 29, (p, h) => [u64(time), u32(1), inBlock(subnet), ...header(p, h), inBlock(base)], [
      subnet,
      base,
    ]);
    expect(Object.keys(banff)).toEqual(['time', 'txs', 'parentID', 'height', 'id', 'tx']);
    expect([banff.time, banff.parentID, banff.txs, banff.tx]).toEqual([
      Number(time),
      atomic.id,
      [txJsonOf(subnet)],
      txJsonOf(base),
    ]);
  });
});
