/**
 * propertyfx on the X-Chain (vms/propertyfx): an asset created with a property mint output, a mint that keeps the
 * mint output and gives an owned output, a burn of the owned output, and the refusals of fx.go in the node's words.
 * avalanchejs 5.2.0 registers no propertyfx type: the mock's copy has them from mock/shared/propertyfx.ts, so these
 * transactions are built with that copy's codec and classes (the test's own copy of the library lacks them).
 */
import {
  Byte,
  Credential,
  Id,
  Input,
  Int,
  OutputOwners,
  Signature,
  Stringpr,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq } from './sdk-world.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { avalanche } from '../../mock/shared/avalanche.ts';
import { avmClass, outputType } from '../../mock/engine/codec.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import type { World } from '../../mock/world/world.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { xChainReads } from '../../mock/world/reads-x.ts';
import { bech32Encode } from '../../generators/formats.ts';

const OTHER_KEY = new Uint8Array(32).fill(7);
const other = new Uint8Array(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(OTHER_KEY)));
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

// biome-ignore lint/suspicious/noExplicitAny: the registered classes are the mock copy's, untyped
type Any = any;
const av = avalanche();
const manager = () => av.utils.getManagerForVM('AVM');
const codec = () => manager().getDefaultCodec();
const [PropertyMintOutput, OwnedOutput, PropertyMintOperation, BurnOperation] = [15, 16, 17, 18].map(
  (id) => avmClass(id) as Any,
);
const owners = (threshold: number, ...addresses: Uint8Array[]) => OutputOwners.fromNative(addresses, 0n, threshold);

let world: World;
let engine: Engine;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world);
});

/** A BaseTx of ewoq's first AVAX UTXO paying `fee`, the change back to ewoq. */
function baseOf(fee: bigint) {
  const utxo = world.utxosOf('X', hex(ewoq)).find((u) => u.assetID === world.network.avaxAssetID)!;
  const parsed = manager().unpack(utxo.bytes, av.Utxo);
  const input = av.TransferableInput.fromUtxoAndSigindicies(parsed, [0]);
  const change = av.TransferableOutput.fromNative(world.network.avaxAssetID, utxo.amount - fee, [ewoq]);
  return av.avaxSerial.BaseTx.fromNative(
    world.network.networkID,
    world.chainIDs.X,
    [change],
    [input],
    new Uint8Array(),
  );
}

/** Signs `tx` with one key per credential, each credential under its codec type ID (9 secp256k1fx, 19 propertyfx). */
async function signed(tx: Any, creds: [Uint8Array, number][]): Promise<Uint8Array> {
  const message = manager().packCodec(tx);
  const packed = await Promise.all(
    creds.map(async ([key, typeID]) =>
      utils.concatBytes(
        new Int(typeID).toBytes(),
        new Credential([new Signature(await secp256k1.sign(message, key))]).toBytes(codec() as never),
      ),
    ),
  );
  return utils.concatBytes(message, new Int(creds.length).toBytes(), ...packed);
}

async function propertyAsset(): Promise<string> {
  const tx = new av.avmSerial.CreateAssetTx(
    baseOf(world.config.createAssetTxFee),
    new Stringpr('Deed'),
    new Stringpr('DEED'),
    new Byte(Uint8Array.of(0)),
    [new av.avmSerial.InitialState(new Int(2), [new PropertyMintOutput(owners(1, ewoq))])],
  );
  return engine.issue('X', await signed(tx, [[EWOQ, 9]]));
}

/** An OperationTx with one operation on UTXO `index` of `txID`, parsed by the codec from its bytes. */
function operationTx(assetID: string, txID: string, index: number, op: Any) {
  const bytes = utils.concatBytes(
    baseOf(world.config.txFee).toBytes(codec()),
    new Int(1).toBytes(),
    Id.fromString(assetID).toBytes(),
    new Int(1).toBytes(),
    av.avaxSerial.UTXOID.fromNative(txID, index).toBytes(codec()),
    codec().PackPrefix(op),
  );
  return av.avmSerial.OperationTx.fromBytes(bytes, codec())[0];
}
const mint = (minter = ewoq, to = other) =>
  new PropertyMintOperation(
    Input.fromNative([0]),
    new PropertyMintOutput(owners(1, minter)),
    new OwnedOutput(owners(1, to)),
  );
const typesOf = (txID: string) =>
  [...world.utxos.X.values()]
    .filter((u) => u.txID === txID)
    .map((u) => [u.outputIndex, outputType(u), u.owner.addresses]);

describe('propertyfx', () => {
  it('creates a property asset, mints an owned output and burns it', async () => {
    const assetID = await propertyAsset();
    expect(world.txs.get(assetID)?.status).toBe('Accepted');
    expect(world.assets.get(assetID)?.fxs).toEqual([2]);
    expect(typesOf(assetID)).toContainEqual([1, 15, [hex(ewoq)]]);

    const mintID = engine.issue(
      'X',
      await signed(operationTx(assetID, assetID, 1, mint()), [
        [EWOQ, 9],
        [EWOQ, 19],
      ]),
    );
    expect(world.txs.get(mintID)?.status).toBe('Accepted');
    expect(typesOf(mintID)).toEqual(
      expect.arrayContaining([
        [1, 15, [hex(ewoq)]],
        [2, 16, [hex(other)]],
      ]),
    );
    expect(typesOf(assetID).some(([index]) => index === 1)).toBe(false);

    const burn = operationTx(assetID, mintID, 2, new BurnOperation(Input.fromNative([0])));
    const burnID = engine.issue(
      'X',
      await signed(burn, [
        [EWOQ, 9],
        [OTHER_KEY, 19],
      ]),
    );
    expect(world.txs.get(burnID)?.status).toBe('Accepted');
    expect(typesOf(mintID).map(([index]) => index)).not.toContain(2);
    expect(typesOf(burnID).map(([, type]) => type)).toEqual([7]);

    // The node's JSON form: the outputs take OutputOwners' MarshalJSON, MintOperation its json tags, BurnOperation
    // its embedded secp256k1fx.Input; each credential names its fx.
    const json = (txID: string) =>
      JSON.parse((xChainReads(world, TX_TYPES).getTx!({ txID, encoding: 'json' }) as { json: string }).json).tx;
    const propertyfx = 'rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy';
    const address = (a: Uint8Array) => `X-${bech32Encode(world.network.hrp, a)}`;
    const owned = (a: Uint8Array) => ({ addresses: [address(a)], locktime: 0, threshold: 1 });
    expect(json(assetID).unsignedTx.initialStates).toEqual([{ fxIndex: 2, fxID: propertyfx, outputs: [owned(ewoq)] }]);
    const minted = json(mintID);
    expect(minted.unsignedTx.operations[0].operation).toEqual({
      mintInput: { signatureIndices: [0] },
      mintOutput: owned(ewoq),
      ownedOutput: owned(other),
    });
    expect(minted.unsignedTx.operations[0].fxID).toBe(propertyfx);
    expect(minted.credentials.map((c: { fxID: string }) => c.fxID)).toEqual([
      'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ',
      propertyfx,
    ]);
    expect(json(burnID).unsignedTx.operations[0].operation).toEqual({ signatureIndices: [0] });

    // The address index holds a mint's outputs (MintOperation.Outs()) and the UTXO a burn spends.
    const txsOf = (a: Uint8Array) =>
      (xChainReads(world, TX_TYPES).getAddressTxs!({ address: address(a), assetID }) as { txIDs: string[] }).txIDs;
    expect(txsOf(ewoq)).toEqual([assetID, mintID]);
    expect(txsOf(other)).toEqual([mintID, burnID]);
  });

  it("refuses in fx.go's words: credential, mint output, UTXO type, signature, owners", async () => {
    const assetID = await propertyAsset();
    const refused = async (tx: Any, creds: [Uint8Array, number][], text: string) => {
      const bytes = await signed(tx, creds);
      expect(() => engine.issue('X', bytes)).toThrow(text);
    };
    await refused(
      operationTx(assetID, assetID, 1, mint()),
      [
        [EWOQ, 9],
        [EWOQ, 9],
      ],
      'wrong credential type',
    );
    await refused(
      operationTx(assetID, assetID, 1, mint(other)),
      [
        [EWOQ, 9],
        [EWOQ, 19],
      ],
      'wrong mint output provided',
    );
    await refused(
      operationTx(assetID, assetID, 1, mint()),
      [
        [EWOQ, 9],
        [OTHER_KEY, 19],
      ],
      `wrong signature: expected signature from ${cb58Encode(ewoq)} but got from ${cb58Encode(other)}`,
    );
    const burnMint = operationTx(assetID, assetID, 1, new BurnOperation(Input.fromNative([0])));
    await refused(
      burnMint,
      [
        [EWOQ, 9],
        [EWOQ, 19],
      ],
      'wrong utxo type',
    );
    const unspendable = new PropertyMintOperation(
      Input.fromNative([0]),
      new PropertyMintOutput(owners(1, ewoq)),
      new OwnedOutput(owners(2, other)),
    );
    await refused(
      operationTx(assetID, assetID, 1, unspendable),
      [
        [EWOQ, 9],
        [EWOQ, 19],
      ],
      'output is unspendable',
    );
  });
});
