/**
 * Large transactions (issue 24 items 4 and 8, issue 27 item 8): the mempool's MaxTxSize where the node's release has
 * it, decoding whose work grows with the transaction rather than with its square, and a pooled P-Chain tx issued
 * again answered with its ID.
 */
import {
  Address,
  BigIntPr,
  Bytes,
  Id,
  Int,
  OutputOwners,
  TransferOutput,
  TransferableOutput,
  type UnsignedTx,
  Utxo,
  addTxSignatures,
  avaxSerial,
  avm,
  avmSerial,
  pvm,
  utils,
} from '@avalabs/avalanchejs';
import { describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext, sdkFeeState } from './sdk-world.ts';
import { decodeTx } from '../../mock/engine/codec.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { idOf } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import type { UtxoChain } from '../../mock/world/types.ts';
import type { World } from '../../mock/world/world.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const manager = (chain: UtxoChain) => utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');
const utxosOf = (world: World, chain: UtxoChain) =>
  world.utxosOf(chain, hex(ewoq)).map((u) => manager(chain).unpack(u.bytes, Utxo));

/** `count` outputs of 1 nAVAX each: 80 bytes apiece on the wire. */
const outputs = (world: World, count: number) =>
  Array.from({ length: count }, (_, i) =>
    TransferableOutput.fromNative(world.network.avaxAssetID, 1n, [new Uint8Array(20).fill(1 + (i % 200))]),
  );

async function sign(unsigned: UnsignedTx): Promise<Uint8Array> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  return unsigned.getSignedTx().toBytes();
}

function pSend(world: World, count: number) {
  return pvm.newBaseTx(
    {
      feeState: sdkFeeState(world),
      fromAddressesBytes: [ewoq],
      utxos: utxosOf(world, 'P'),
      outputs: outputs(world, count),
    },
    sdkContext(world),
  );
}

describe("the mempool's MaxTxSize", () => {
  it('refuses an X-Chain tx over 64 KiB in the words of the mempool, after verifying it', async () => {
    const world = buildWorld({ network: 'local', accounts: 0 });
    const engine = new Engine(world);
    const large = await sign(avm.newBaseTx(sdkContext(world), [ewoq], utxosOf(world, 'X'), outputs(world, 1000)));
    expect(large.length).toBeGreaterThan(64 * 1024);
    expect(() => engine.issue('X', large)).toThrow(
      `tx too large: ${idOf(large)} size (${large.length}) > max size (65536)`,
    );
    expect(world.txs.has(idOf(large))).toBe(false);
    // Just under the limit passes.
    const fits = await sign(avm.newBaseTx(sdkContext(world), [ewoq], utxosOf(world, 'X'), outputs(world, 800)));
    expect(fits.length).toBeLessThanOrEqual(64 * 1024);
    expect(engine.issue('X', fits)).toBe(idOf(fits));
  });

  it('refuses a large P-Chain tx before v1.14.1 and marks it dropped; the gas-metered pool since takes it', async () => {
    const world = buildWorld({ network: 'local', accounts: 0 });
    const old = new Engine(world, { mode: 'auto' }, 'v1.14.0');
    const large = await sign(pSend(world, 830));
    const text = `couldn't issue tx: tx too large: ${idOf(large)} size (${large.length}) > max size (65536)`;
    expect(() => old.issue('P', large)).toThrow(text);
    expect(world.txs.get(idOf(large))).toMatchObject({ status: 'Dropped' });
    // Dropped, it is refused again from the drop cache.
    expect(() => old.issue('P', large)).toThrow(text);

    const current = buildWorld({ network: 'local', accounts: 0 });
    const engine = new Engine(current, { mode: 'auto' }, 'v1.14.2');
    const accepted = await sign(pSend(current, 830));
    expect(accepted.length).toBeGreaterThan(64 * 1024);
    expect(engine.issue('P', accepted)).toBe(idOf(accepted));
    expect(current.txs.get(idOf(accepted))?.status).toBe('Committed');
  });
});

describe('decoding a large transaction', () => {
  /** An X-Chain BaseTx of about 256 KiB, 3,200 outputs, for another network: refused once decoded. */
  function wrongNetwork(world: World): Uint8Array {
    const assetId = Id.fromString(world.network.avaxAssetID);
    const owners = () => new OutputOwners(new BigIntPr(0n), new Int(1), [new Address(new Uint8Array(20).fill(1))]);
    const outs = Array.from(
      { length: 3200 },
      (_, i) => new TransferableOutput(assetId, new TransferOutput(new BigIntPr(BigInt(i + 1)), owners())),
    );
    const base = new avaxSerial.BaseTx(
      new Int(5),
      Id.fromString(world.chainIDs.X),
      outs,
      [],
      new Bytes(new Uint8Array()),
    );
    return new avaxSerial.SignedTx(new avmSerial.BaseTx(base), []).toBytes();
  }

  it('copies the bytes a bounded number of times, not once per field read', () => {
    const world = buildWorld({ network: 'local', accounts: 0 });
    const bytes = wrongNetwork(world);
    expect(bytes.length).toBeGreaterThan(250 * 1024);
    // avalanchejs' readers copied everything after each field (Uint8Array#slice): 3,200 outputs, some 30,000 copies of
    // what remained, gigabytes in all. Counted here, the copies' bytes must stay within a few times the tx's size.
    const slice = Uint8Array.prototype.slice;
    let copied = 0;
    Uint8Array.prototype.slice = function (this: Uint8Array, start?: number, end?: number) {
      const copy = slice.call(this, start, end);
      copied += copy.length;
      return copy;
    };
    let decoded: ReturnType<typeof decodeTx>;
    try {
      decoded = decodeTx('X', bytes);
    } finally {
      Uint8Array.prototype.slice = slice;
    }
    expect(decoded.tx.baseTx.outputs).toHaveLength(3200);
    expect(copied).toBeLessThan(4 * bytes.length);
    expect(() => new Engine(world).issue('X', bytes)).toThrow('tx has wrong network ID');
  });
});

describe('a P-Chain tx issued again while pooled', () => {
  it('answers its ID, as issueTxFromRPC takes the mempool’s duplicate as added', async () => {
    const world = buildWorld({ network: 'local', accounts: 0 });
    const engine = new Engine(world, { mode: 'manual' });
    const bytes = await sign(pSend(world, 1));
    const txID = engine.issue('P', bytes);
    expect(engine.issue('P', bytes)).toBe(txID);
    expect(engine.pending('P')).toBe(1);
    expect(world.txs.get(txID)?.status).toBe('Processing');
    engine.mine('P');
    expect(world.txs.get(txID)?.status).toBe('Committed');
  });
});
