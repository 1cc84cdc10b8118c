/**
 * Malformed transactions answer the node's codec error (codec/manager.go, reflectcodec, linearcodec, wrappers.Packer),
 * wrapped as avm.issueTx (not at all) and platform.issueTx ("couldn't parse tx: " twice) wrap it: a real signed tx,
 * cut at each kind of field, with a byte too many, a slice too long, a wrong version or type.
 */
import {
  Id,
  MintOutput,
  OutputOwners,
  TransferableOutput,
  type TransferOutput,
  Utxo,
  addTxSignatures,
  avaxSerial,
  avm,
  avmSerial,
  utils,
} from '@avalabs/avalanchejs';
import { beforeAll, describe, expect, it } from 'vitest';
import { EWOQ, ewoq } from './sdk-world.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import type { World } from '../../mock/world/world.ts';
import { pRefusal } from './refusal.ts';

const SHORT = 'packer has insufficient length for input';

let world: World;
let engine: Engine;
let signed: Uint8Array;
beforeAll(async () => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world);
  const manager = utils.getManagerForVM('AVM');
  const utxos = world.utxosOf('X', Buffer.from(ewoq).toString('hex')).map((u) => manager.unpack(u.bytes, Utxo));
  const context = {
    networkID: world.network.networkID,
    xBlockchainID: world.chainIDs.X,
    avaxAssetID: world.network.avaxAssetID,
    baseTxFee: world.config.txFee,
  };
  const out = TransferableOutput.fromNative(world.network.avaxAssetID, 5n, [new Uint8Array(20).fill(4)]);
  const tx = avm.newBaseTx(context as never, [ewoq], utxos, [out], { memo: new Uint8Array([1, 2, 3]) });
  await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
  signed = tx.getSignedTx().toBytes();
});

const hex = (text: string) => Uint8Array.from(Buffer.from(text, 'hex'));
const cut = (length: number) => signed.subarray(0, length);
const refusal = (chain: 'X' | 'P', bytes: Uint8Array) => {
  try {
    engine.issue(chain, bytes);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

/** Offsets in the signed BaseTx: codec version 2, type ID 4, network ID 4, chain ID 32, then the outputs. */
const OUTS = 2 + 4 + 4 + 32;
const FIRST_OUT = OUTS + 4;
const AMOUNT = FIRST_OUT + 32 + 4;

describe('codec errors of avm.issueTx', () => {
  const cases: [string, () => Uint8Array, string | (() => string)][] = [
    ['no bytes', () => new Uint8Array(), "couldn't unpack codec version"],
    ['one byte', () => hex('00'), "couldn't unpack codec version"],
    ['codec version 1', () => hex('0001000000000000'), 'unknown codec version'],
    ['an unknown type ID', () => hex('0000000000ff'), "couldn't unmarshal interface: unknown type ID 255"],
    [
      'a type that is no transaction',
      () => hex('000000000005'),
      "couldn't unmarshal interface: *secp256k1fx.TransferInput does not implement interface txs.UnsignedTx",
    ],
    ['cut in the type ID', () => cut(4), `couldn't unmarshal interface: ${SHORT}`],
    ['cut in the network ID', () => cut(8), `couldn't unmarshal uint32: ${SHORT}`],
    ['cut in the chain ID', () => cut(20), SHORT],
    ['cut in the outputs length', () => cut(OUTS + 2), `couldn't unmarshal slice: ${SHORT}`],
    ['cut at the first output', () => cut(FIRST_OUT), SHORT],
    ['cut in an output type ID', () => cut(FIRST_OUT + 34), `couldn't unmarshal interface: ${SHORT}`],
    ['cut in an amount', () => cut(AMOUNT + 3), `couldn't unmarshal uint64: ${SHORT}`],
    ['cut in the last signature', () => cut(signed.length - 10), SHORT],
    ['cut before the credentials', () => cut(signed.length - 4 - 4 - 4 - 65), `couldn't unmarshal slice: ${SHORT}`],
    [
      'cut before a credential type ID',
      () => cut(signed.length - 4 - 4 - 65),
      `couldn't unmarshal interface: ${SHORT}`,
    ],
    [
      'an outputs length past any limit',
      () => {
        const bytes = Uint8Array.from(signed);
        Buffer.from(bytes.buffer).writeUInt32BE(0xffff_ffff, OUTS);
        return bytes;
      },
      'max slice length exceeded; array length, 4294967295, exceeds maximum length, 2147483647',
    ],
    [
      'a byte too many',
      () => utils.concatBytes(signed, hex('00')),
      () => `trailing buffer space: read ${signed.length} provided ${signed.length + 1}`,
    ],
    ['more than 256 KiB', () => new Uint8Array(262_145), 'byte array exceeds maximum length: 262145 > 262144'],
  ];
  it.each(cases)('%s', (_, bytes, text) => {
    expect(refusal('X', bytes())).toBe(typeof text === 'function' ? text() : text);
  });

  it('the same tx whole is accepted', () => {
    expect(refusal('X', signed)).toBe('accepted');
  });
});

describe('codec errors of platform.issueTx', () => {
  const P = "couldn't parse tx: couldn't parse tx: ";
  it.each([
    ['no bytes', new Uint8Array(), "couldn't unpack codec version"],
    ['a skipped type ID', hex('000000000000'), "couldn't unmarshal interface: unknown type ID 0"],
    ['a type that is no transaction', hex('000000000016'), "couldn't unmarshal interface: *stakeable.LockOut"],
    ['cut in the network ID of a BaseTx', hex('00000000002200'), `couldn't unmarshal uint32: ${SHORT}`],
  ])('%s', (_, bytes, text) => {
    expect(refusal('P', bytes)).toMatch(new RegExp(`^${(P + text).replace(/[().*]/g, '\\$&')}`));
  });
});

describe('types platform.issueTx parses but refuses', () => {
  it('AdvanceTimeTx and RewardValidatorTx: the wrong transaction type', () => {
    expect(refusal('P', hex(`000000000013${'00'.repeat(8)}00000000`))).toMatch(pRefusal('wrong transaction type'));
    expect(refusal('P', hex(`000000000014${'11'.repeat(32)}00000000`))).toMatch(pRefusal('wrong transaction type'));
  });
});

describe('types the node codec does not admit where avalanchejs does', () => {
  it('an X-Chain BaseTx paying out a mint output', () => {
    const mint = new TransferableOutput(
      Id.fromString(world.network.avaxAssetID),
      // avalanchejs' types refuse a mint output here, but its codec encodes and decodes one.
      new MintOutput(OutputOwners.fromNative([ewoq])) as unknown as TransferOutput,
    );
    const base = avaxSerial.BaseTx.fromNative(world.network.networkID, world.chainIDs.X, [mint], [], new Uint8Array());
    const bytes = utils.concatBytes(
      utils.getManagerForVM('AVM').packCodec(new avmSerial.BaseTx(base)),
      hex('00000000'),
    );
    expect(refusal('X', bytes)).toBe(
      "couldn't unmarshal interface: *secp256k1fx.MintOutput does not implement interface avax.TransferableOut",
    );
  });
});
