/** A forked UTXO's record, read from its bytes, is the record the world keeps for the same UTXO, locked ones too. */
import { describe, expect, it } from 'vitest';
import { utxoFrom } from '../../mock/fork/convert.ts';
import { makeUtxo } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import type { Utxo } from '../../mock/world/types.ts';

const fields = ({ key, txID, outputIndex, assetID, amount, owner, stakeableLocktime }: Utxo) => ({
  key,
  txID,
  outputIndex,
  assetID,
  amount,
  owner,
  stakeableLocktime,
});

describe('utxoFrom', () => {
  it("reads every UTXO of a local world's X and P chains, stakeable locks included, as the world has it", () => {
    const world = buildWorld({ accounts: 2, utxosPerAccount: 3 });
    const locked = makeUtxo({
      txID: world.network.avaxAssetID,
      outputIndex: 7,
      assetID: world.network.avaxAssetID,
      amount: 5n,
      owner: { locktime: 0n, threshold: 1, addresses: ['ab'.repeat(20)] },
      stakeableLocktime: 2_000_000_000n,
    });
    world.utxos.P.set(locked.key, locked);
    for (const chain of ['X', 'P'] as const) {
      const all = [...world.utxos[chain].values()];
      expect(all.some((u) => chain === 'X' || u.stakeableLocktime > 0n)).toBe(true);
      for (const utxo of all) {
        const read = utxoFrom(chain, Buffer.from(utxo.bytes));
        expect(fields(read)).toEqual(fields(utxo));
        expect(Buffer.from(read.bytes)).toEqual(Buffer.from(utxo.bytes));
      }
    }
  });

  it('reads a multisig owner with a time lock through the same layout', () => {
    const world = buildWorld({ accounts: 0 });
    const owner = { locktime: 99n, threshold: 2, addresses: ['11'.repeat(20), '22'.repeat(20), '33'.repeat(20)] };
    const [sample] = [...world.utxos.X.values()];
    const utxo = { ...sample!, owner };
    const bytes = Buffer.from(sample!.bytes);
    const locked = Buffer.concat([bytes.subarray(0, 70 + 12), Buffer.alloc(16 + 60)]);
    locked.writeBigUInt64BE(99n, 82);
    locked.writeUInt32BE(2, 90);
    locked.writeUInt32BE(3, 94);
    owner.addresses.forEach((a, i) => locked.write(a, 98 + 20 * i, 'hex'));
    expect(fields(utxoFrom('X', locked))).toEqual(fields(utxo));
  });
});
