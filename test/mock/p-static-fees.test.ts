/**
 * A mock standing for a release before Etna (v1.12.0) charges the P-Chain's static fees of that era
 * (vms/platformvm/txs/fee/static_calculator.go at v1.11.x: txFee, createSubnetTxFee, ... from info.getTxFee's config);
 * since Etna, the dynamic fee. Transactions are built with avalanchejs 5.2.0's classes, paying an exact fee.
 */
import {
  Address,
  BigIntPr,
  Credential,
  Id,
  Input,
  Int,
  OutputOwners,
  Signature,
  TransferInput,
  TransferOutput,
  TransferableInput,
  TransferableOutput,
  avaxSerial,
  pvmSerial,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq } from './sdk-world.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { dynamicFee } from '../../mock/engine/p.ts';
import { idOf, makeUtxo } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import type { Utxo } from '../../mock/world/types.ts';
import type { World } from '../../mock/world/world.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const AVAX = 1_000_000_000n;
const MILLI = AVAX / 1000n;
const manager = utils.getManagerForVM('PVM');
const PRE_ETNA = 'v1.11.13';

let world: World;
let seed = 1;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
});

/** A fresh 1 AVAX UTXO owned by ewoq on the P-Chain. */
function give(): Utxo {
  const utxo = makeUtxo({
    txID: utils.base58check.encode(new Uint8Array(32).fill(seed++)),
    outputIndex: 0,
    assetID: world.network.avaxAssetID,
    amount: AVAX,
    owner: { locktime: 0n, threshold: 1, addresses: [hex(ewoq)] },
    stakeableLocktime: 0n,
  });
  world.utxos.P.set(utxo.key, utxo);
  return utxo;
}

const owners = () => new OutputOwners(new BigIntPr(0n), new Int(1), [new Address(ewoq)]);

/** A tx of `kind` spending one fresh UTXO whole and keeping all but `fee` as change. */
function build(kind: 'base' | 'subnet', fee: bigint) {
  const utxo = give();
  const input = new TransferableInput(
    avaxSerial.UTXOID.fromNative(utxo.txID, 0),
    Id.fromString(utxo.assetID),
    new TransferInput(new BigIntPr(utxo.amount), Input.fromNative([0])),
  );
  const change = new TransferableOutput(
    Id.fromString(world.network.avaxAssetID),
    new TransferOutput(new BigIntPr(utxo.amount - fee), owners()),
  );
  const base = avaxSerial.BaseTx.fromNative(
    world.network.networkID,
    world.chainIDs.P,
    [change],
    [input],
    new Uint8Array(),
  );
  return kind === 'base' ? new pvmSerial.BaseTx(base) : new pvmSerial.CreateSubnetTx(base, owners());
}

async function signed(tx: ReturnType<typeof build>): Promise<Uint8Array> {
  const message = manager.packCodec(tx);
  const signature = new Signature(await secp256k1.sign(message, EWOQ));
  return utils.concatBytes(message, manager.getDefaultCodec().PackPrefixList([new Credential([signature])]));
}

const short = (bytes: Uint8Array, needed: bigint) =>
  `couldn't issue tx: failed verification: failed execution: standard tx ${idOf(bytes)} failed execution: ` +
  `insufficient unlocked funds: needs ${needed} more ${world.network.avaxAssetID}`;

describe('static fees before Etna', () => {
  it('a BaseTx pays txFee: exactly is committed, one nAVAX short is refused', async () => {
    const engine = new Engine(world, { mode: 'auto' }, PRE_ETNA);
    const exact = await signed(build('base', MILLI));
    expect(world.txs.get(engine.issue('P', exact))?.status).toBe('Committed');
    const bytes = await signed(build('base', MILLI - 1n));
    expect(() => engine.issue('P', bytes)).toThrow(short(bytes, 1n));
  });

  it('a CreateSubnetTx pays createSubnetTxFee (100 mAVAX on a local network), not txFee', async () => {
    const engine = new Engine(world, { mode: 'auto' }, PRE_ETNA);
    const cheap = await signed(build('subnet', MILLI));
    expect(() => engine.issue('P', cheap)).toThrow(short(cheap, 99n * MILLI));
    const id = engine.issue('P', await signed(build('subnet', 100n * MILLI)));
    expect(world.subnets.has(id)).toBe(true);
  });

  it('a release before v1.11.13 answers the executor text under service.go wrap alone', async () => {
    const engine = new Engine(world, { mode: 'auto' }, 'v1.11.12');
    const bytes = await signed(build('base', MILLI - 1n));
    expect(() => engine.issue('P', bytes)).toThrow(
      new RegExp(`^couldn't issue tx: insufficient unlocked funds: needs 1 more ${world.network.avaxAssetID}$`),
    );
  });

  it('since Etna the dynamic fee applies, which a pre-Etna node refuses', async () => {
    const fee = dynamicFee(world, build('base', 0n));
    expect(fee).toBeLessThan(MILLI);
    const bytes = await signed(build('base', fee));
    expect(() => new Engine(world, { mode: 'auto' }, PRE_ETNA).issue('P', bytes)).toThrow(short(bytes, MILLI - fee));
    const txID = new Engine(world, { mode: 'auto' }, 'v1.12.0').issue('P', bytes);
    expect(world.txs.get(txID)?.status).toBe('Committed');
  });
});
