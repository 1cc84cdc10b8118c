/**
 * `avm.getAddressTxs` from the world's accepted X-Chain transactions (the node's address index, paginated by cursor
 * and pageSize) and `avm.buildGenesis` encoding assets with the genesis codec: the local network's AVAX genesis
 * rebuilt through it hashes to the real local AVAX asset ID.
 */
import { TransferableOutput, Utxo, addTxSignatures, avaxSerial, avm, utils } from '@avalabs/avalanchejs';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EWOQ, ewoq } from './sdk-world.ts';
import { bech32Encode, cb58Encode, hexDecode, hexEncode } from '../../generators/formats.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { NETWORKS } from '../../mock/world/networks.ts';
import { callRpc } from '../support/rpc.ts';

const recipient = new Uint8Array(20).fill(5);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, nodeVersion: 'all', validateResults: true, world: { accounts: 0 } });
});
afterAll(() => node?.close());

const rpc = (path: string, method: string, params: object) => callRpc(node.url + path, method, params);

describe('avm.getAddressTxs', () => {
  const X = (bytes: Uint8Array) => `X-${bech32Encode('local', bytes)}`;

  async function send(amount: bigint): Promise<string> {
    const world = node.world;
    const utxos = world.utxosOf('X', hex(ewoq)).map((u) => utils.getManagerForVM('AVM').unpack(u.bytes, Utxo));
    const context = {
      networkID: world.network.networkID,
      hrp: world.network.hrp,
      xBlockchainID: world.chainIDs.X,
      avaxAssetID: world.network.avaxAssetID,
      baseTxFee: world.config.txFee,
      createAssetTxFee: world.config.createAssetTxFee,
    };
    const tx = avm.newBaseTx(context as never, [ewoq], utxos, [
      TransferableOutput.fromNative(world.network.avaxAssetID, amount, [recipient]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
    const reply = await rpc('/ext/bc/X', 'avm.issueTx', { tx: hexEncode(tx.getSignedTx().toBytes()) });
    return reply.result.txID;
  }

  it('lists the transactions that spent from or paid an address, per asset, oldest first, by pages', async () => {
    expect((await rpc('/ext/bc/X', 'avm.getAddressTxs', { address: X(ewoq), assetID: 'AVAX' })).result).toEqual({
      txIDs: null,
      cursor: '0',
    });
    const first = await send(1_000_000_000n);
    const second = await send(2_000_000_000n);
    const all = await rpc('/ext/bc/X', 'avm.getAddressTxs', { address: X(ewoq), assetID: 'AVAX' });
    expect(all.result).toEqual({ txIDs: [first, second], cursor: '2' });
    const paid = await rpc('/ext/bc/X', 'avm.getAddressTxs', {
      address: X(recipient),
      assetID: node.world.network.avaxAssetID,
    });
    expect(paid.result.txIDs).toEqual([first, second]);
    const page = await rpc('/ext/bc/X', 'avm.getAddressTxs', { address: X(ewoq), assetID: 'AVAX', pageSize: 1 });
    expect(page.result).toEqual({ txIDs: [first], cursor: '1' });
    const next = await rpc('/ext/bc/X', 'avm.getAddressTxs', {
      address: X(ewoq),
      assetID: 'AVAX',
      pageSize: '1',
      cursor: page.result.cursor,
    });
    expect(next.result).toEqual({ txIDs: [second], cursor: '2' });
    const other = await rpc('/ext/bc/X', 'avm.getAddressTxs', { address: X(new Uint8Array(20)), assetID: 'AVAX' });
    expect(other.result.txIDs).toBeNull();
  });

  it('answers the node errors for a page too large, an address of another network and an unknown asset', async () => {
    const ask = (params: object) => rpc('/ext/bc/X', 'avm.getAddressTxs', params);
    expect((await ask({ address: X(ewoq), assetID: 'AVAX', pageSize: 1025 })).error?.message).toBe(
      'pageSize > maximum allowed (1024)',
    );
    const fuji = `X-${bech32Encode('fuji', ewoq)}`;
    expect((await ask({ address: fuji, assetID: 'AVAX' })).error?.message).toBe(
      `couldn't parse argument 'address' to address: couldn't parse address "${fuji}": expected hrp "local" but got "fuji"`,
    );
    expect((await ask({ address: X(ewoq), assetID: '' })).error?.message).toBe(
      "specified `assetID` is invalid: asset '' not found",
    );
  });
});

describe('avm.buildGenesis', () => {
  it("rebuilds the local network's AVAX genesis: its transaction hashes to the real local AVAX asset ID", async () => {
    const local = NETWORKS.local;
    const tx = node.world.txs.get(local.avaxAssetID)!;
    // biome-ignore lint/suspicious/noExplicitAny: avalanchejs keeps the decoded fields private
    const asset = utils.getManagerForVM('AVM').unpack(tx.bytes, avaxSerial.SignedTx).unsignedTx as any;
    const holders = asset.initialStates[0].outputs.map((out: typeof asset) => ({
      amount: String(out.amt.value()),
      address: bech32Encode('custom', out.outputOwners.addrs[0].toBytes()),
    }));
    const reply = await rpc('/ext/vm/avm', 'avm.buildGenesis', {
      networkId: local.networkID,
      genesisData: {
        AVAX: {
          name: 'Avalanche',
          symbol: 'AVAX',
          denomination: 9,
          memo: hexEncode(asset.baseTx.memo.bytes),
          // Holders in any order: the node sorts the outputs by their bytes.
          initialState: { fixedCap: holders.reverse() },
        },
      },
    });
    expect(reply.error).toBeUndefined();
    const bytes = hexDecode(reply.result.bytes)!;
    // Codec version, one GenesisAsset, its alias "AVAX"; then the CreateAssetTx without its type ID.
    expect(hex(bytes.subarray(0, 12))).toBe(`0000000000010004${hex(Buffer.from('AVAX'))}`);
    const signed = Buffer.concat([Buffer.from('000000000001', 'hex'), bytes.subarray(12), Buffer.alloc(4)]);
    expect(cb58Encode(createHash('sha256').update(signed).digest())).toBe(local.avaxAssetID);
  });

  it('sorts assets by alias and minters within a variable-cap output, in the requested encoding', async () => {
    const [a, b] = [new Uint8Array(20).fill(2), new Uint8Array(20).fill(1)];
    const reply = await rpc('/ext/vm/avm', 'avm.buildGenesis', {
      networkID: '5',
      genesisData: {
        zed: {
          name: 'Zed',
          symbol: 'Z',
          initialState: {
            variableCap: [{ minters: [bech32Encode('avax', a), bech32Encode('avax', b)], threshold: 2 }],
          },
        },
        alpha: { name: 'Alpha', symbol: 'A', denomination: '3' },
      },
      encoding: 'hexnc',
    });
    expect(reply.result.encoding).toBe('hexnc');
    const bytes = Buffer.from(reply.result.bytes.slice(2), 'hex');
    expect(bytes.readUInt32BE(2)).toBe(2);
    expect(bytes.subarray(8, 13).toString()).toBe('alpha');
    const zed = bytes.indexOf(Buffer.from('zed'));
    expect(zed).toBeGreaterThan(0);
    // One initial state (fx 0) with one MintOutput (type 6): locktime 0, threshold 1, the minters sorted.
    const tail = ['00000001', '00000000', '00000001', '00000006', '0'.repeat(16), '00000001', '00000002'];
    expect(hex(bytes.subarray(bytes.length - 72))).toBe(tail.join('') + '01'.repeat(20) + '02'.repeat(20));
  });

  it('refuses what the node refuses, in its words', async () => {
    const ask = (genesisData: object) => rpc('/ext/vm/avm', 'avm.buildGenesis', { networkID: 1, genesisData });
    expect((await ask({ a: { initialState: { nonFungible: [{}] } } })).error?.message).toBe('unknown asset type');
    expect(
      (
        await ask({
          a: { initialState: { fixedCap: [{ amount: 1, address: 'avax13ery2kvdrkd2nkquvs892gl8hg7mq4a6ufnrn6' }] } },
        })
      ).error?.message,
    ).toBe('problem parsing holder address: invalid checksum (expected (bech32=96w9sj, bech32m=sx7f4s), got ufnrn6)');
    expect((await ask({ a: { memo: 'abcd' } })).error?.message).toBe(
      'problem formatting asset definition memo due to: missing 0x prefix to hex encoding',
    );
  });
});
