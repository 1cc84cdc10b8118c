/**
 * The X-Chain's CreateAssetTx with mint outputs and its OperationTx (secp256k1fx mint of a variable-cap asset, nftfx
 * mint and transfer), built with avalanchejs 5.2.0's classes and signed as the node checks them; the reads show what
 * was minted, and each refusal is the node's text.
 */
import {
  Byte,
  Bytes,
  Credential,
  Id,
  Input,
  Int,
  MintOperation,
  MintOutput,
  OutputOwners,
  OutputOwnersList,
  Signature,
  Stringpr,
  TransferableInput,
  TransferableOutput,
  TransferOutput,
  BigIntPr,
  Utxo,
  avaxSerial,
  avmSerial,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq } from './sdk-world.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { avmClass } from '../../mock/engine/codec.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { xChainReads } from '../../mock/world/reads-x.ts';
import type { World } from '../../mock/world/world.ts';

const OTHER_KEY = new Uint8Array(32).fill(7);
const other = new Uint8Array(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(OTHER_KEY)));
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
// biome-ignore lint/suspicious/noExplicitAny: the nftfx classes come from the codec's registry, untyped
type Any = any;
const NftMintOutput = avmClass(10) as Any;
const NftTransferOutput = avmClass(11) as Any;
const NftMintOperation = avmClass(12) as Any;
const NftTransferOperation = avmClass(13) as Any;
const NftCredential = avmClass(14) as Any;

let world: World;
let engine: Engine;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world);
});

const manager = () => utils.getManagerForVM('AVM');
const codec = () => manager().getDefaultCodec();
const owners = (address: Uint8Array) => OutputOwners.fromNative([address]);
const utxosOf = (owner: Uint8Array) => world.utxosOf('X', hex(owner)).map((u) => manager().unpack(u.bytes, Utxo));
const avaxUtxo = () => utxosOf(ewoq).find((u) => u.assetId.toString() === world.network.avaxAssetID)!;
const read = (method: keyof ReturnType<typeof xChainReads>, params: Record<string, unknown>) =>
  xChainReads(world, TX_TYPES)[method](params);
const address = (bytes: Uint8Array) => `X-${utils.formatBech32(world.network.hrp, bytes)}`;

/** A BaseTx of ewoq's first AVAX UTXO, paying `fee` and sending the change back, plus `outs`. */
function baseOf(fee: bigint, outs: TransferableOutput[] = []): avaxSerial.BaseTx {
  const utxo = avaxUtxo();
  const input = TransferableInput.fromUtxoAndSigindicies(utxo, [0]);
  const change = TransferableOutput.fromNative(world.network.avaxAssetID, input.amount() - fee, [ewoq]);
  return avaxSerial.BaseTx.fromNative(
    world.network.networkID,
    world.chainIDs.X,
    [change, ...outs],
    [input],
    new Uint8Array(),
  );
}

/** Signs with one key per credential; `nft` marks the credentials of nftfx operations. */
async function signed(tx: Any, keys: Uint8Array[], nft: boolean[] = []): Promise<Uint8Array> {
  const message = manager().packCodec(tx);
  const credentials = await Promise.all(
    keys.map(async (key, i) => {
      const signatures = [new Signature(await secp256k1.sign(message, key))];
      return nft[i] ? new NftCredential(signatures) : new Credential(signatures);
    }),
  );
  // avaxSerial.SignedTx's own toBytes finds no VM on CreateAssetTx and OperationTx: the same layout, by the codec.
  return utils.concatBytes(message, codec().PackPrefixList(credentials));
}

/** An OperationTx from avalanchejs' own parser: the library exports no TransferableOp class to build one with. */
function operationTx(base: avaxSerial.BaseTx, ops: { assetID: string; utxoIDs: avaxSerial.UTXOID[]; op: Any }[]) {
  const bytes = utils.concatBytes(
    base.toBytes(codec()),
    new Int(ops.length).toBytes(),
    ...ops.map(({ assetID, utxoIDs, op }) =>
      utils.concatBytes(
        Id.fromString(assetID).toBytes(),
        new Int(utxoIDs.length).toBytes(),
        ...utxoIDs.map((u) => u.toBytes(codec())),
        codec().PackPrefix(op),
      ),
    ),
  );
  return avmSerial.OperationTx.fromBytes(bytes, codec())[0];
}

function createAssetTx(name: string, symbol: string, states: { fx: number; outputs: Any[] }[]) {
  return new avmSerial.CreateAssetTx(
    baseOf(world.config.createAssetTxFee),
    new Stringpr(name),
    new Stringpr(symbol),
    new Byte(Uint8Array.of(2)),
    states.map((s) => new avmSerial.InitialState(new Int(s.fx), s.outputs)),
  );
}

const transferOut = (amount: bigint, to: Uint8Array) => new TransferOutput(new BigIntPr(amount), owners(to));
const utxoID = (txID: string, index: number) => avaxSerial.UTXOID.fromNative(txID, index);

/** A variable-cap asset: 1000 to ewoq and a mint output ewoq controls. */
async function variableCapAsset(): Promise<string> {
  const tx = createAssetTx('Test Coin', 'TEST', [
    { fx: 0, outputs: [new MintOutput(owners(ewoq)), transferOut(1000n, ewoq)] },
  ]);
  return engine.issue('X', await signed(tx, [EWOQ]));
}

/** Mints `amount` to `to` with the mint output at `index` of `mintTxID`, keeping the mint output with ewoq. */
function mintTx(assetID: string, mintTxID: string, index: number, amount: bigint, to: Uint8Array, minter = ewoq) {
  const op = new MintOperation(Input.fromNative([0]), new MintOutput(owners(minter)), transferOut(amount, to));
  return operationTx(baseOf(world.config.txFee), [{ assetID, utxoIDs: [utxoID(mintTxID, index)], op }]);
}

describe('X-Chain CreateAssetTx and OperationTx', () => {
  it('creates a variable-cap asset and mints it: UTXOs, getBalance, getAllBalances', async () => {
    const assetID = await variableCapAsset();
    expect(world.txs.get(assetID)?.status).toBe('Accepted');
    expect(read('getAssetDescription', { assetID })).toMatchObject({ name: 'Test Coin', symbol: 'TEST' });
    // The change output is index 0, then the initial state's mint (1) and transfer (2) outputs.
    const mintID = engine.issue('X', await signed(mintTx(assetID, assetID, 1, 500n, other), [EWOQ, EWOQ]));
    expect(world.txs.get(mintID)?.status).toBe('Accepted');
    expect(read('getBalance', { address: address(other), assetID })).toMatchObject({ balance: '500' });
    const mine = read('getBalance', { address: address(ewoq), assetID }) as { balance: string; utxoIDs: unknown[] };
    expect(mine).toMatchObject({ balance: '1000' });
    // The node counts secp256k1fx transfer outputs alone: not the mint output ewoq now holds.
    expect(mine.utxoIDs).toHaveLength(1);
    expect(read('getAllBalances', { address: address(other) })).toEqual({
      balances: [{ asset: assetID, balance: '500' }],
    });
    const minted = utxosOf(other).filter((u) => u.assetId.toString() === assetID);
    expect(minted.map((u) => [u.utxoId.txID.toString(), u.utxoId.outputIdx.value()])).toEqual([[mintID, 2]]);

    // The first mint output is spent; the new one (index 1 of the mint) mints again.
    const again = await signed(mintTx(assetID, assetID, 1, 1n, other), [EWOQ, EWOQ]);
    expect(() => engine.issue('X', again)).toThrow(/^not found$/);
    engine.issue('X', await signed(mintTx(assetID, mintID, 1, 250n, other), [EWOQ, EWOQ]));
    expect(read('getBalance', { address: address(other), assetID })).toMatchObject({ balance: '750' });
  });

  it('refuses mints in the node words', async () => {
    const assetID = await variableCapAsset();
    const bad = async (tx: Any, keys = [EWOQ, EWOQ], nft: boolean[] = []) => {
      const bytes = await signed(tx, keys, nft);
      return () => engine.issue('X', bytes);
    };
    expect(await bad(mintTx(assetID, assetID, 1, 5n, other), [EWOQ, OTHER_KEY])).toThrow(
      `wrong signature: expected signature from ${cb58Encode(ewoq)} but got from ${cb58Encode(other)}`,
    );
    expect(await bad(mintTx(assetID, assetID, 1, 5n, other, other))).toThrow(
      /^wrong mint output created from the operation$/,
    );
    expect(await bad(mintTx(assetID, assetID, 2, 5n, other))).toThrow(/^wrong utxo type$/);
    expect(await bad(mintTx(assetID, assetID, 1, 0n, other))).toThrow(/^output has no value$/);
    expect(await bad(operationTx(baseOf(world.config.txFee), []), [EWOQ])).toThrow(
      /^an operationTx must have at least one operation$/,
    );
    const op = new MintOperation(Input.fromNative([0]), new MintOutput(owners(ewoq)), transferOut(5n, other));
    const mint = { assetID, utxoIDs: [utxoID(assetID, 1)], op };
    expect(await bad(operationTx(baseOf(world.config.txFee), [mint, mint]), [EWOQ, EWOQ, EWOQ])).toThrow(
      /^inputs attempt to double spend an input$/,
    );
    expect(await bad(mintTx(assetID, assetID, 1, 5n, other), [EWOQ])).toThrow(/^wrong number of credentials: 1 != 2$/);
    const avax = { ...mint, assetID: world.network.avaxAssetID };
    expect(await bad(operationTx(baseOf(world.config.txFee), [avax]))).toThrow(
      /^asset IDs in the input don't match the utxo$/,
    );
    const mintNft = new NftMintOperation(
      Input.fromNative([0]),
      new Int(0),
      new Bytes(new Uint8Array()),
      new OutputOwnersList([owners(other)]),
    );
    expect(
      await bad(operationTx(baseOf(world.config.txFee), [{ ...mint, op: mintNft }]), [EWOQ, EWOQ], [false, true]),
    ).toThrow(/^incompatible feature extension$/);
  });

  it('mints an NFT and transfers it; a wrong payload or group is refused', async () => {
    const create = createAssetTx('Art', 'ART', [{ fx: 1, outputs: [new NftMintOutput(new Int(7), owners(ewoq))] }]);
    const assetID = engine.issue('X', await signed(create, [EWOQ]));
    const payload = new Bytes(new TextEncoder().encode('hello'));
    const mintOp = new NftMintOperation(
      Input.fromNative([0]),
      new Int(7),
      payload,
      new OutputOwnersList([owners(other)]),
    );
    const mint = operationTx(baseOf(world.config.txFee), [{ assetID, utxoIDs: [utxoID(assetID, 1)], op: mintOp }]);
    const mintID = engine.issue('X', await signed(mint, [EWOQ, EWOQ], [false, true]));
    const held = utxosOf(other).filter((u) => u.assetId.toString() === assetID);
    expect(held.map((u) => u.output._type)).toEqual(['nftfx.TransferOutput']);

    const transfer = (group: number, bytes: Uint8Array) =>
      operationTx(baseOf(world.config.txFee), [
        {
          assetID,
          utxoIDs: [utxoID(mintID, 1)],
          op: new NftTransferOperation(
            Input.fromNative([0]),
            new NftTransferOutput(new Int(group), new Bytes(bytes), owners(ewoq)),
          ),
        },
      ]);
    const send = async (tx: Any) => engine.issue('X', await signed(tx, [EWOQ, OTHER_KEY], [false, true]));
    await expect(send(transfer(7, new Uint8Array(3)))).rejects.toThrow(/^wrong bytes provided$/);
    await expect(send(transfer(8, payload.bytes))).rejects.toThrow(/^wrong unique ID provided$/);
    const moved = await send(transfer(7, payload.bytes));
    expect(world.txs.get(moved)?.status).toBe('Accepted');

    // The node's JSON form (nftfx's json tags and MarshalJSON: owners' fields with groupID and 0x payload; the
    // credential of the NFT operation names nftfx).
    const json = (txID: string) =>
      JSON.parse((read('getTx', { txID, encoding: 'json' }) as { json: string }).json).tx as Any;
    const nftfx = 'qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT';
    const owned = (a: Uint8Array) => ({ addresses: [address(a)], locktime: 0, threshold: 1 });
    expect(json(assetID).unsignedTx.initialStates).toEqual([
      { fxIndex: 1, fxID: nftfx, outputs: [{ ...owned(ewoq), groupID: 7 }] },
    ]);
    const minted = json(mintID);
    expect(minted.unsignedTx.operations).toEqual([
      {
        assetID,
        inputIDs: [{ txID: assetID, outputIndex: 1 }],
        fxID: nftfx,
        operation: {
          mintInput: { signatureIndices: [0] },
          groupID: 7,
          payload: '0x68656c6c6f',
          outputs: [owned(other)],
        },
      },
    ]);
    expect(minted.credentials.map((c: Any) => c.fxID)).toEqual([
      'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ',
      nftfx,
    ]);
    expect(Object.keys(minted.credentials[1].credential)).toEqual(['signatures']);
    expect(json(moved).unsignedTx.operations[0].operation).toEqual({
      input: { signatureIndices: [0] },
      output: { addresses: [address(ewoq)], groupID: 7, locktime: 0, payload: '0x68656c6c6f', threshold: 1 },
    });
    // getAddressTxs indexes the NFT's outputs and the UTXOs the operations spend.
    const txsOf = (a: Uint8Array) => (read('getAddressTxs', { address: address(a), assetID }) as Any).txIDs;
    expect(txsOf(other)).toEqual([mintID, moved]);
    expect(txsOf(ewoq)).toEqual([assetID, mintID, moved]);
    expect(Object.keys(json(moved).unsignedTx)).toEqual([
      'networkID',
      'blockchainID',
      'outputs',
      'inputs',
      'memo',
      'operations',
    ]);
    expect(utxosOf(other).filter((u) => u.assetId.toString() === assetID)).toEqual([]);
    expect(
      utxosOf(ewoq)
        .filter((u) => u.assetId.toString() === assetID)
        .map((u) => u.output._type),
    ).toEqual(['nftfx.TransferOutput']);
  });

  it('refuses operations out of order (by their codec bytes), and takes them in order', async () => {
    const minters = [new MintOutput(owners(ewoq)), new MintOutput(owners(other))].sort((a, b) =>
      Buffer.compare(codec().PackPrefix(a), codec().PackPrefix(b)),
    );
    const create = createAssetTx('Two Minters', 'TWO', [{ fx: 0, outputs: minters }]);
    const assetID = engine.issue('X', await signed(create, [EWOQ]));
    const keyOf = (minter: Any) =>
      minter === minters.find((m) => m.getOutputOwners().equals(owners(ewoq))) ? EWOQ : OTHER_KEY;
    const ops = minters.map((minter, i) => ({
      assetID,
      utxoIDs: [utxoID(assetID, 1 + i)],
      op: new MintOperation(Input.fromNative([0]), minter, transferOut(BigInt(10 + i), ewoq)),
      key: keyOf(minter),
    }));
    // A TransferableOp's codec bytes: asset ID, UTXO IDs, then the fx operation with its type ID.
    const opBytes = (op: (typeof ops)[number]) =>
      (operationTx(baseOf(world.config.txFee), [op]) as Any).ops[0].toBytes(codec()) as Uint8Array;
    const ordered = [...ops].sort((a, b) => Buffer.compare(opBytes(a), opBytes(b)));
    const issue = async (list: typeof ops) =>
      engine.issue('X', await signed(operationTx(baseOf(world.config.txFee), list), [EWOQ, ...list.map((o) => o.key)]));
    await expect(issue([...ordered].reverse())).rejects.toThrow(/^operations not sorted and unique$/);
    const txID = await issue(ordered);
    expect(read('getBalance', { address: address(ewoq), assetID })).toMatchObject({ balance: '21' });
    expect(world.txs.get(txID)?.status).toBe('Accepted');
  });

  it('refuses a CreateAssetTx whose initial states or outputs break the node rules', async () => {
    const issue = async (states: { fx: number; outputs: Any[] }[]) =>
      engine.issue('X', await signed(createAssetTx('Coin', 'CN', states), [EWOQ]));
    await expect(issue([{ fx: 3, outputs: [] }])).rejects.toThrow(/^unknown feature extension$/);
    const byBytes = [transferOut(1n, other), transferOut(1n, ewoq)].sort((a, b) =>
      Buffer.compare(codec().PackPrefix(a), codec().PackPrefix(b)),
    );
    await expect(issue([{ fx: 0, outputs: byBytes.reverse() }])).rejects.toThrow(/^outputs not sorted$/);
    await expect(
      issue([
        { fx: 1, outputs: [] },
        { fx: 0, outputs: [] },
      ]),
    ).rejects.toThrow(/^initial states not sorted and unique$/);
  });
});
