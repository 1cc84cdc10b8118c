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
import { bech32Encode, cb58Encode } from '../../generators/formats.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { gasPrice } from '../../mock/engine/p.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { EWOQ_PRIVATE_KEY, FX_IDS } from '../../mock/world/networks.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import { xChainReads } from '../../mock/world/reads-x.ts';
import type { UtxoChain } from '../../mock/world/types.ts';
import type { World } from '../../mock/world/world.ts';
import { proofOfPossession } from '../../mock/engine/bls.ts';

/** A Primary Network validator must register a BLS key with its proof of possession (the node's signer check). */
const blsSigner = (() => {
  const { publicKey, proof } = proofOfPossession(new Uint8Array(32).fill(11));
  return { publicKey, signature: proof };
})();

const EWOQ = new Uint8Array(utils.base58check.decode(EWOQ_PRIVATE_KEY.slice('PrivateKey-'.length)));
const ewoq = new Uint8Array(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(EWOQ)));
const recipient = new Uint8Array(20).fill(9);
const AVAX = 1_000_000_000n;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const SECP = FX_IDS[0]!;

function contextOf(w: World) {
  const f = w.config.fee;
  return {
    networkID: w.network.networkID,
    hrp: w.network.hrp,
    xBlockchainID: w.chainIDs.X,
    pBlockchainID: w.chainIDs.P,
    cBlockchainID: w.chainIDs.C,
    avaxAssetID: w.network.avaxAssetID,
    baseTxFee: w.config.txFee,
    createAssetTxFee: w.config.createAssetTxFee,
    platformFeeConfig: {
      weights: { 0: f.weights[0], 1: f.weights[1], 2: f.weights[2], 3: f.weights[3] },
      maxCapacity: f.maxCapacity,
      maxPerSecond: f.maxPerSecond,
      targetPerSecond: f.targetPerSecond,
      minPrice: f.minPrice,
      excessConversionConstant: f.excessConversionConstant,
    },
  };
}

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
    const ctx = contextOf(world);
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
    return answer((chain === 'X' ? xChainReads(world) : pChainReads(world)).getTx, { txID: id, encoding: 'json' });
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
    const { text, value } = answer(xChainReads(world).getTx, { txID: world.network.avaxAssetID, encoding: 'json' });
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
    const { value } = answer(pChainReads(world).getTx, { txID: staker.txID, encoding: 'json' });
    expect(value.tx.unsignedTx.signer).toEqual(staker.signer);
    expect(value.tx.unsignedTx.stake[0].output.amount).toBe(Number(staker.weight));
  });

  it('writes each block with its header and transactions, walking from the tip to genesis by parent ID', () => {
    for (const chain of ['X', 'P'] as const) {
      const reads = chain === 'X' ? xChainReads(world) : pChainReads(world);
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

  const rpc = async (path: string, method: string, params: object) => {
    const response = await fetch(node.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return response.text();
  };

  it('answers the JSON form over HTTP with the network HRP; the spec example transaction is not found', async () => {
    const w = node.world;
    const text = await rpc('/ext/bc/X', 'avm.getBlockByHeight', { height: 1, encoding: 'json' });
    const reply = JSON.parse(text);
    expect(reply.error).toBeUndefined();
    expect(reply.result.block.height).toBe(1);
    expect(text).toContain(`"addresses":["X-${bech32Encode('fuji', Buffer.from(w.accounts[0]!.address, 'hex'))}"]`);
    const example = exampleOf('avm/getTx.json', 'json');
    const asked = JSON.parse(await rpc('/ext/bc/X', 'avm.getTx', { txID: example.tx.id, encoding: 'json' }));
    expect(asked.error.message).toBe('not found');
    const p = JSON.parse(await rpc('/ext/bc/P', 'platform.getBlockByHeight', { height: 0, encoding: 'json' }));
    expect(p.result.block).toEqual({ parentID: w.network.genesisID, height: 0, id: w.blocks.P.at(0)!.id });
  });
});
