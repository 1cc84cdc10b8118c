/**
 * The node's orderings and the P-Chain's locked funds: outputs sorted, inputs sorted and unique, owners' addresses
 * sorted and unique, signature indices ascending (X and P), and stakeable-locked inputs producing only what their
 * locktime and owner allow (vms/platformvm/utxo/verifier.go). Transactions are built by hand with avalanchejs 5.2.0's
 * classes, as no SDK would build them.
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
  avmSerial,
  pvmSerial,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq } from './sdk-world.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { ownerID } from '../../mock/engine/locked.ts';
import { dynamicFee } from '../../mock/engine/p.ts';
import { makeUtxo } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import type { Utxo, UtxoChain } from '../../mock/world/types.ts';
import type { World } from '../../mock/world/world.ts';
import { pRefusal } from './refusal.ts';

const low = new Uint8Array(20).fill(1);
const high = new Uint8Array(20).fill(0xee);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const AVAX = 1_000_000_000n;

let world: World;
let engine: Engine;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world);
});

// biome-ignore lint/suspicious/noExplicitAny: the P and X BaseTx classes share no exported type
type Tx = any;
const manager = (chain: UtxoChain) => utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');

/** A UTXO of `amount` AVAX owned by ewoq, put straight into the chain's set. */
function give(chain: UtxoChain, amount: bigint, stakeableLocktime = 0n): Utxo {
  const utxo = makeUtxo({
    txID: utils.base58check.encode(new Uint8Array(32).fill(Number(amount % 251n) + (stakeableLocktime ? 3 : 1))),
    outputIndex: 0,
    assetID: world.network.avaxAssetID,
    amount,
    owner: { locktime: 0n, threshold: 1, addresses: [hex(ewoq)] },
    stakeableLocktime,
  });
  world.utxos[chain].set(utxo.key, utxo);
  return utxo;
}

const inputOf = (utxo: Utxo, indices = [0]) => {
  const transfer = new TransferInput(new BigIntPr(utxo.amount), Input.fromNative(indices));
  const input = utxo.stakeableLocktime
    ? new pvmSerial.StakeableLockIn(new BigIntPr(utxo.stakeableLocktime), transfer)
    : transfer;
  return new TransferableInput(avaxSerial.UTXOID.fromNative(utxo.txID, 0), Id.fromString(utxo.assetID), input);
};

const owners = (...addresses: Uint8Array[]) =>
  new OutputOwners(
    new BigIntPr(0n),
    new Int(1),
    addresses.map((a) => new Address(a)),
  );
const out = (amount: bigint, to: OutputOwners, locktime = 0n) => {
  const transfer = new TransferOutput(new BigIntPr(amount), to);
  const output = locktime ? new pvmSerial.StakeableLockOut(new BigIntPr(locktime), transfer) : transfer;
  return new TransferableOutput(Id.fromString(world.network.avaxAssetID), output);
};

function baseTx(chain: UtxoChain, ins: TransferableInput[], outs: TransferableOutput[]): Tx {
  const base = avaxSerial.BaseTx.fromNative(
    world.network.networkID,
    world.chainIDs[chain],
    outs,
    ins,
    new Uint8Array(),
  );
  return chain === 'X' ? new avmSerial.BaseTx(base) : new pvmSerial.BaseTx(base);
}

async function issue(chain: UtxoChain, tx: Tx): Promise<string> {
  const message = manager(chain).packCodec(tx);
  const signature = new Signature(await secp256k1.sign(message, EWOQ));
  const credentials = tx.baseTx.inputs.map(() => new Credential([signature]));
  const codec = manager(chain).getDefaultCodec();
  return engine.issue(chain, utils.concatBytes(message, codec.PackPrefixList(credentials)));
}

describe('orderings, as the syntactic verifiers check them', () => {
  it('X: outputs not sorted, inputs not sorted and unique, addresses, signature indices', async () => {
    const a = give('X', 10n * AVAX);
    const b = give('X', 20n * AVAX);
    const fee = world.config.txFee;
    const [first, second] = [inputOf(a), inputOf(b)].sort((x, y) => TransferableInput.compare(x, y));
    const total = a.amount + b.amount - fee;
    const sorted = [out(1n, owners(low)), out(total - 1n, owners(high))].sort((x, y) =>
      Buffer.compare(x.toBytes(manager('X').getDefaultCodec()), y.toBytes(manager('X').getDefaultCodec())),
    );
    await expect(issue('X', baseTx('X', [first!, second!], [...sorted].reverse()))).rejects.toThrow(
      /^outputs not sorted$/,
    );
    await expect(issue('X', baseTx('X', [second!, first!], sorted))).rejects.toThrow(/^inputs not sorted and unique$/);
    await expect(issue('X', baseTx('X', [first!, first!], sorted))).rejects.toThrow(/^inputs not sorted and unique$/);
    await expect(issue('X', baseTx('X', [first!], [out(1n, owners(high, low))]))).rejects.toThrow(
      /^addresses not sorted and unique$/,
    );
    await expect(issue('X', baseTx('X', [first!], [out(1n, owners(low, low))]))).rejects.toThrow(
      /^addresses not sorted and unique$/,
    );
    await expect(issue('X', baseTx('X', [inputOf(a, [1, 0])], []))).rejects.toThrow(
      /^address indices not sorted and unique$/,
    );
    await expect(issue('X', baseTx('X', [inputOf(a)], [out(0n, owners(low))]))).rejects.toThrow(
      /^output has no value$/,
    );
    const txID = await issue('X', baseTx('X', [first!, second!], sorted));
    expect(world.txs.get(txID)?.status).toBe('Accepted');
  });

  it('P: the same checks, wrapped as platform.issueTx wraps them', async () => {
    const a = give('P', 10n * AVAX);
    await expect(issue('P', baseTx('P', [inputOf(a)], [out(1n, owners(high, low))]))).rejects.toThrow(
      pRefusal(`output failed verification: addresses not sorted and unique`),
    );
    await expect(issue('P', baseTx('P', [inputOf(a, [0, 0])], []))).rejects.toThrow(
      pRefusal(`input failed verification: address indices not sorted and unique`),
    );
    const outs = [out(2n, owners(high)), out(1n, owners(low))];
    await expect(issue('P', baseTx('P', [inputOf(a)], outs))).rejects.toThrow(pRefusal(`outputs not sorted`));
    await expect(issue('P', baseTx('P', [inputOf(a), inputOf(a)], []))).rejects.toThrow(
      pRefusal(`inputs not sorted and unique`),
    );
  });
});

describe('P-Chain export outputs (export_tx.go SyntacticVerify)', () => {
  it('refuses an exported stakeable lock and exported outputs out of order', async () => {
    const a = give('P', 10n * AVAX);
    const exportTx = (outs: TransferableOutput[]) => {
      const base = avaxSerial.BaseTx.fromNative(
        world.network.networkID,
        world.chainIDs.P,
        [],
        [inputOf(a)],
        new Uint8Array(),
      );
      return new pvmSerial.ExportTx(base, Id.fromString(world.chainIDs.X), outs);
    };
    const issueExport = async (outs: TransferableOutput[]) => {
      const tx = exportTx(outs);
      const message = manager('P').packCodec(tx);
      const credential = new Credential([new Signature(await secp256k1.sign(message, EWOQ))]);
      return engine.issue('P', utils.concatBytes(message, manager('P').getDefaultCodec().PackPrefixList([credential])));
    };
    await expect(issueExport([out(AVAX, owners(ewoq), world.time.get() + 60n)])).rejects.toThrow(
      pRefusal(`wrong locktime reported`),
    );
    await expect(issueExport([out(2n, owners(ewoq)), out(1n, owners(ewoq))])).rejects.toThrow(
      pRefusal(`outputs not sorted`),
    );
  });
});

describe('P-Chain locked funds (utxo/verifier.go VerifySpend)', () => {
  const locktime = () => world.time.get() + 3600n;

  /** A BaseTx spending a locked 5 AVAX UTXO and an unlocked one of `unlocked`, paying the dynamic fee from it. */
  function lockedSpend(unlocked: bigint, lockedOuts: (fee: bigint) => TransferableOutput[]): Tx {
    const locked = give('P', 5n * AVAX, locktime());
    const free = give('P', unlocked);
    const ins = [inputOf(locked), inputOf(free)].sort((x, y) => TransferableInput.compare(x, y));
    const build = (fee: bigint) => {
      const outs = lockedOuts(fee).sort((x, y) =>
        Buffer.compare(x.toBytes(manager('P').getDefaultCodec()), y.toBytes(manager('P').getDefaultCodec())),
      );
      return baseTx('P', ins, outs);
    };
    return build(dynamicFee(world, build(0n)));
  }

  it('keeps locked funds locked with the same owner and locktime', async () => {
    const tx = lockedSpend(AVAX, (fee) => [out(5n * AVAX, owners(ewoq), locktime()), out(AVAX - fee, owners(ewoq))]);
    const txID = await issue('P', tx);
    expect(world.txs.get(txID)?.status).toBe('Committed');
    const produced = world.utxosOf('P', hex(ewoq)).filter((u) => u.txID === txID);
    expect(produced.map((u) => u.stakeableLocktime).sort()).toEqual([0n, locktime()]);
  });

  it('refuses locked funds unlocked, moved to another owner or another locktime', async () => {
    const unlocking = lockedSpend(AVAX, (fee) => [out(6n * AVAX - fee, owners(ewoq))]);
    await expect(issue('P', unlocking)).rejects.toThrow(
      pRefusal(`insufficient unlocked funds: needs ${5n * AVAX} more ${world.network.avaxAssetID}`),
    );
    const moved = lockedSpend(AVAX, () => [out(5n * AVAX, owners(low), locktime())]);
    const lowOwner = ownerID({ locktime: 0n, threshold: 1, addresses: [hex(low)] });
    await expect(issue('P', moved)).rejects.toThrow(
      pRefusal(
        `insufficient locked funds: ${lowOwner} needs ${4n * AVAX} more ${world.network.avaxAssetID} for locktime ${locktime()}`,
      ),
    );
    const later = lockedSpend(AVAX, () => [out(5n * AVAX, owners(ewoq), locktime() + 1n)]);
    await expect(issue('P', later)).rejects.toThrow(/insufficient locked funds: \w+ needs 4000000000 more/);
  });
});
