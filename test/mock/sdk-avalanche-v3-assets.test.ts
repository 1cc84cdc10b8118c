/**
 * An X-Chain token app on avalanche.js v3 (the `avalanche` package, 3.16.0) over HTTP, signing with the ewoq key:
 * a fixed-cap asset created then sent, a variable-cap asset minted by its minter, and an NFT family created, minted
 * and transferred. Each step is read back through v3's own calls (getAssetDescription, getBalance, getAllBalances,
 * getUTXOs), and each tx burns what v3 decides to pay (its defaults, at least what the node charges).
 */
import { Avalanche, BN, Buffer } from 'avalanche';
import {
  InitialStates,
  MinterSet,
  NFTMintOutput,
  NFTTransferOutput,
  SECPMintOutput,
  SECPTransferOutput,
} from 'avalanche/dist/apis/avm/index.js';
import { OutputOwners } from 'avalanche/dist/common/output.js';
import BinTools from 'avalanche/dist/utils/bintools.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ_PRIVATE_KEY, NETWORKS } from '../../mock/world/networks.ts';

const local = NETWORKS.local;
let node: RunningMockNode;
let avalanche: Avalanche;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  avalanche = new Avalanche('127.0.0.1', Number(new URL(node.url).port), 'http', local.networkID, local.xChainID);
});
afterAll(() => node?.close());

function wallet() {
  const x = avalanche.XChain();
  const keys = x.keyChain();
  const ewoq = keys.importKey(EWOQ_PRIVATE_KEY).getAddressString();
  const other = keys.makeKey().getAddressString();
  const issue = async (unsigned: { sign(k: typeof keys): never }) => {
    const txID = await x.issueTx(unsigned.sign(keys));
    expect(await x.getTxStatus(txID)).toBe('Accepted');
    return txID;
  };
  const avaxOf = async (address: string) => new BN((await x.getBalance(address, local.avaxAssetID)).balance);
  const utxos = async (address: string) => (await x.getUTXOs([address])).utxos;
  return { x, keys, ewoq, other, issue, avaxOf, utxos, parse: (a: string) => x.parseAddress(a) };
}

describe('X-Chain assets with avalanche.js v3', () => {
  it('creates a fixed-cap asset, describes it, sends some to another key', async () => {
    const { x, ewoq, other, issue, avaxOf, utxos, parse } = wallet();
    const before = await avaxOf(ewoq);
    const states = new InitialStates();
    states.addOutput(new SECPTransferOutput(new BN(1_000_000), [parse(ewoq)]));
    const assetID = await issue(
      (await x.buildCreateAssetTx(await utxos(ewoq), [ewoq], [ewoq], states, 'Test Token', 'ADV', 2)) as never,
    );
    // v3 burns its own default for a creation (a centiAVAX), over the node's createAssetTxFee: the node burns the rest.
    const fee = x.getCreationTxFee();
    expect(fee.gte(new BN(String(node.world.config.createAssetTxFee)))).toBe(true);
    expect((await avaxOf(ewoq)).toString()).toBe(before.sub(fee).toString());
    expect(await x.getAssetDescription(assetID)).toMatchObject({
      name: 'Test Token',
      symbol: 'ADV',
      denomination: 2,
    });

    const txFee = x.getTxFee();
    await issue((await x.buildBaseTx(await utxos(ewoq), new BN(1234), assetID, [other], [ewoq], [ewoq])) as never);
    expect(new BN((await x.getBalance(other, assetID)).balance).toNumber()).toBe(1234);
    expect(new BN((await x.getBalance(ewoq, assetID)).balance).toNumber()).toBe(1_000_000 - 1234);
    expect((await avaxOf(ewoq)).toString()).toBe(before.sub(fee).sub(txFee).toString());
    const all = (await x.getAllBalances(other)) as { asset: string; balance: string }[];
    expect(all).toEqual([{ asset: assetID, balance: '1234' }]);
  });

  it('creates a variable-cap asset and mints it with its minter key', async () => {
    const { x, ewoq, other, issue, utxos, parse } = wallet();
    const states = new InitialStates();
    states.addOutput(new SECPMintOutput([parse(ewoq)]));
    const assetID = await issue(
      (await x.buildCreateAssetTx(await utxos(ewoq), [ewoq], [ewoq], states, 'Minted', 'MNT', 0)) as never,
    );
    const mintUTXO = (await utxos(ewoq))
      .getAllUTXOs()
      .find((u) => u.getAssetID().toString('hex') === bintools(assetID) && u.getOutput() instanceof SECPMintOutput);
    expect(mintUTXO).toBeDefined();
    const minted = await x.buildSECPMintTx(
      await utxos(ewoq),
      new SECPMintOutput([parse(ewoq)]),
      new SECPTransferOutput(new BN(500), [parse(other)]),
      [ewoq],
      [ewoq],
      mintUTXO!.getUTXOID(),
    );
    await issue(minted);
    expect(new BN((await x.getBalance(other, assetID)).balance).toNumber()).toBe(500);
  });

  it('creates an NFT family, mints one to itself and transfers it', async () => {
    const { x, ewoq, other, issue, utxos, parse } = wallet();
    const assetID = await issue(
      (await x.buildCreateNFTAssetTx(
        await utxos(ewoq),
        [ewoq],
        [ewoq],
        [new MinterSet(1, [parse(ewoq)])],
        'Art',
        'ART',
      )) as never,
    );
    const mintUTXO = (await utxos(ewoq))
      .getAllUTXOs()
      .find((u) => u.getAssetID().toString('hex') === bintools(assetID) && u.getOutput() instanceof NFTMintOutput);
    expect(mintUTXO).toBeDefined();
    const payload = Buffer.from('nft #1');
    await issue(
      await x.buildCreateNFTMintTx(
        await utxos(ewoq),
        new OutputOwners([parse(ewoq)]),
        [ewoq],
        [ewoq],
        mintUTXO!.getUTXOID(),
        0,
        payload,
      ),
    );
    const nft = (await utxos(ewoq))
      .getAllUTXOs()
      .find((u) => u.getAssetID().toString('hex') === bintools(assetID) && u.getOutput() instanceof NFTTransferOutput);
    expect(nft).toBeDefined();
    expect((nft!.getOutput() as NFTTransferOutput).getPayload().toString()).toBe('nft #1');

    await issue((await x.buildNFTTransferTx(await utxos(ewoq), [other], [ewoq], [ewoq], nft!.getUTXOID())) as never);
    const theirs = (await utxos(other)).getAllUTXOs();
    expect(theirs).toHaveLength(1);
    const out = theirs[0]!.getOutput() as NFTTransferOutput;
    expect(out).toBeInstanceOf(NFTTransferOutput);
    expect(out.getPayload().toString()).toBe('nft #1');
    expect(out.getGroupID()).toBe(0);
  });
});

/** An asset ID in cb58 as the hex of its bytes, as UTXO.getAssetID() gives it. */
const bintools = (cb58: string) => BinTools.getInstance().cb58Decode(cb58).toString('hex');
