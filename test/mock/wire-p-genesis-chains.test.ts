/**
 * The chains the P-Chain's genesis creates, as v1.14.2 keeps them: genesis/genesis.go FromConfig builds a
 * CreateChainTx for the X-Chain (genesis data: the avm genesis with the AVAX asset) and the C-Chain (the genesis
 * file's cChainGenesis), vms/platformvm/genesis/genesis.go:313 with an empty secp256k1fx.Input as subnet
 * authorization; vms/platformvm/state/state.go:1688 stores each with AddTx(chain, Committed). The chain's ID is the
 * tx's ID, so hashing the bytes proves them on every network.
 */
import { Bytes, Id, Input, Int, Stringpr, avaxSerial, pvm, pvmSerial, utils } from '@avalabs/avalanchejs';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cb58Encode } from '../../generators/formats.ts';
import { C_CHAIN_GENESIS } from '../../mock/world/genesis-chains.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { avmGenesisBytes, genesisChainTx } from '../../mock/world/genesis-txs.ts';
import { EMPTY_ID, FX_IDS, NETWORK_NAMES, NETWORKS, VM_IDS } from '../../mock/world/networks.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('genesis CreateChainTxs', () => {
  it('lays out a genesis CreateChainTx as avalanchejs 5.2.0 does', () => {
    const { networkID } = NETWORKS.local;
    const genesisData = Buffer.from('{"config":{}}');
    const theirs = new pvmSerial.CreateChainTx(
      new avaxSerial.BaseTx(new Int(networkID), Id.fromString(EMPTY_ID), [], [], new Bytes(new Uint8Array())),
      Id.fromString(EMPTY_ID),
      new Stringpr('X-Chain'),
      Id.fromString(VM_IDS.avm),
      FX_IDS.map((fx) => Id.fromString(fx)),
      new Bytes(genesisData),
      Input.fromNative([]),
    );
    const ours = genesisChainTx(networkID, EMPTY_ID, {
      name: 'X-Chain',
      vmID: VM_IDS.avm,
      fxIDs: FX_IDS,
      genesisData,
    });
    expect(hex(ours.bytes)).toBe(hex(new avaxSerial.SignedTx(theirs, []).toBytes()));
    const decoded = utils.getManagerForVM('PVM').unpackTransaction(ours.bytes) as pvmSerial.CreateChainTx;
    expect(decoded.chainName.value()).toBe('X-Chain');
  });

  it.each(NETWORK_NAMES)('hashes to the X- and C-Chain IDs of %s, committed on P', (network) => {
    const world = buildWorld({ network, accounts: 0 });
    const identity = NETWORKS[network];
    for (const id of [identity.xChainID, identity.cChainID]) {
      const tx = world.txs.get(id);
      expect(tx?.chain).toBe('P');
      expect(tx?.status).toBe('Committed');
      expect(utils.getManagerForVM('PVM').unpackTransaction(tx!.bytes).getBlockchainId()).toBe(EMPTY_ID);
    }
    const x = world.txs.get(identity.xChainID)!;
    const assetTx = world.txs.get(identity.avaxAssetID)!.bytes;
    const rebuilt = genesisChainTx(identity.networkID, EMPTY_ID, {
      name: 'X-Chain',
      vmID: VM_IDS.avm,
      fxIDs: FX_IDS,
      genesisData: avmGenesisBytes(assetTx),
    });
    expect(rebuilt.id).toBe(identity.xChainID);
    expect(hex(rebuilt.bytes)).toBe(hex(x.bytes));
    const c = genesisChainTx(identity.networkID, EMPTY_ID, {
      name: 'C-Chain',
      vmID: VM_IDS.evm,
      fxIDs: [],
      genesisData: Buffer.from(C_CHAIN_GENESIS[network]),
    });
    expect(c.id).toBe(identity.cChainID);
  });
});

describe('platform.getTx / getTxStatus of a genesis chain', () => {
  let node: RunningMockNode;
  beforeAll(async () => {
    node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  });
  afterAll(() => node.close());
  const p = (method: string, params: object) => callRpc(`${node.url}/ext/bc/P`, `platform.${method}`, params);
  const { xChainID, cChainID, networkID } = NETWORKS.local;

  it('answers the CreateChainTx of the X- and C-Chain, Committed', async () => {
    for (const txID of [xChainID, cChainID]) {
      expect(await p('getTxStatus', { txID })).toEqual({ result: { status: 'Committed' } });
      const { result } = (await p('getTx', { txID, encoding: 'hex' })) as { result: { tx: string; encoding: string } };
      expect(result.encoding).toBe('hex');
      const bytes = Buffer.from(result.tx.slice(2, -8), 'hex');
      expect(utils.getManagerForVM('PVM').unpackTransaction(bytes).getBlockchainId()).toBe(EMPTY_ID);
    }
  });

  it("is what avalanchejs 5.2.0's PVMApi reads: the chain's tx, named by its ID", async () => {
    const api = new pvm.PVMApi(node.url);
    for (const [txID, name] of [
      [xChainID, 'X-Chain'],
      [cChainID, 'C-Chain'],
    ] as const) {
      const signed = await api.getTx({ txID });
      expect(cb58Encode(createHash('sha256').update(signed.toBytes()).digest())).toBe(txID);
      expect((signed.unsignedTx as pvmSerial.CreateChainTx).chainName.value()).toBe(name);
      expect(await api.getTxStatus({ txID })).toEqual({ status: 'Committed' });
    }
  });

  // Go's JSON of a tx read back from the database (state.go:3020 evicts it on write; :1161 parses it again): the
  // codec unmarshals empty lists as [] (codec/reflectcodec/type_codec.go:598), so the C-Chain's fxIDs are [].
  it('answers the JSON form the node writes', async () => {
    const { result } = (await p('getTx', { txID: cChainID, encoding: 'json' })) as {
      result: { tx: Record<string, unknown>; encoding: string };
    };
    expect(result).toEqual({
      tx: {
        unsignedTx: {
          networkID,
          blockchainID: EMPTY_ID,
          outputs: [],
          inputs: [],
          memo: '0x',
          subnetID: EMPTY_ID,
          chainName: 'C-Chain',
          vmID: VM_IDS.evm,
          fxIDs: [],
          genesisData: Buffer.from(C_CHAIN_GENESIS.local).toString('base64'),
          subnetAuthorization: { signatureIndices: [] },
        },
        credentials: [],
        id: cChainID,
      },
      encoding: 'json',
    });
    const x = (await p('getTx', { txID: xChainID, encoding: 'json' })) as {
      result: { tx: { unsignedTx: { chainName: string; fxIDs: string[] } } };
    };
    expect(x.result.tx.unsignedTx.chainName).toBe('X-Chain');
    expect(x.result.tx.unsignedTx.fxIDs).toEqual(FX_IDS);
  });

  // state.go's genesis block is block.NewApricotCommitBlock(genesisID, 0): it holds no transaction; the chains'
  // transactions are in the genesis state only.
  it('keeps the genesis block a commit block without transactions', async () => {
    const { result } = (await p('getBlockByHeight', { height: '0', encoding: 'json' })) as {
      result: { block: Record<string, unknown> };
    };
    expect(result.block).toEqual({
      parentID: NETWORKS.local.genesisID,
      height: 0,
      id: expect.any(String),
    });
  });
});
