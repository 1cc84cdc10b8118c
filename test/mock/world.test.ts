import {
  Address,
  BigIntPr,
  Byte,
  Bytes,
  Id,
  Int,
  OutputOwners,
  Stringpr,
  TransferOutput,
  TransferableOutput,
  TypeSymbols,
  Utxo,
  avaxSerial,
  avmSerial,
  pvmSerial,
  utils,
} from '@avalabs/avalanchejs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cb58Encode } from '../../generators/formats.ts';
import { makeUtxo, utxoIDOf } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { avaxGenesisTx, genesisValidatorTx } from '../../mock/world/genesis-txs.ts';
import { EMPTY_ID, NETWORKS } from '../../mock/world/networks.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('world model', () => {
  it('lays out UTXOs as avalanchejs 5.2.0 does, plain and stakeable-locked, with its UTXO ID', () => {
    const owner = {
      locktime: 7n,
      threshold: 1,
      addresses: ['0101010101010101010101010101010101010101', '0202020202020202020202020202020202020202'],
    };
    const fields = {
      txID: NETWORKS.local.genesisID,
      outputIndex: 3,
      assetID: NETWORKS.local.avaxAssetID,
      amount: 123456789n,
      owner,
      stakeableLocktime: 0n,
    };
    const ours = makeUtxo(fields);
    const owners = OutputOwners.fromNative(
      owner.addresses.map((a) => Buffer.from(a, 'hex')),
      7n,
      1,
    );
    const transfer = new TransferOutput(new BigIntPr(123456789n), owners);
    const theirs = new Utxo(avaxSerial.UTXOID.fromNative(fields.txID, 3), Id.fromString(fields.assetID), transfer);
    expect(hex(ours.bytes)).toBe(`0000${hex(theirs.toBytes(utils.getManagerForVM('AVM').getDefaultCodec()))}`);
    expect(utxoIDOf(ours)).toBe(theirs.ID());

    const locked = makeUtxo({ ...fields, stakeableLocktime: 2000000000n });
    const lockedTheirs = new Utxo(
      avaxSerial.UTXOID.fromNative(fields.txID, 3),
      Id.fromString(fields.assetID),
      new pvmSerial.StakeableLockOut(new BigIntPr(2000000000n), transfer),
    );
    expect(hex(locked.bytes)).toBe(`0000${hex(lockedTheirs.toBytes(utils.getManagerForVM('PVM').getDefaultCodec()))}`);
    const [decoded] = Utxo.fromBytes(locked.bytes.subarray(2), utils.getManagerForVM('PVM').getDefaultCodec());
    expect(decoded.ID()).toBe(utxoIDOf(locked));
  });

  it('lays out the genesis transactions as avalanchejs 5.2.0 does', () => {
    const { networkID, avaxAssetID, stakers } = NETWORKS.local;
    const a = '3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c';
    const b = '0202020202020202020202020202020202020202';
    const addr = (hexText: string) => Buffer.from(hexText, 'hex');
    const signed = (unsigned: never, vm: 'AVM' | 'PVM') =>
      hex(
        vm === 'PVM'
          ? new avaxSerial.SignedTx(unsigned, []).toBytes()
          : Buffer.concat([
              Buffer.alloc(2),
              utils.getManagerForVM(vm).getDefaultCodec().PackPrefix(unsigned),
              Buffer.alloc(4),
            ]),
      );
    const base = (memo: Uint8Array) =>
      new avaxSerial.BaseTx(new Int(networkID), Id.fromString(EMPTY_ID), [], [], new Bytes(memo));

    const holders = [
      { address: a, ethAddr: b, initialAmount: 7n },
      { address: b, ethAddr: a, initialAmount: 9n },
    ];
    const transfer = (amount: bigint, address: string) =>
      new TransferOutput(new BigIntPr(amount), OutputOwners.fromNative([addr(address)]));
    const asset = new avmSerial.CreateAssetTx(
      base(Buffer.concat([addr(b), addr(a)])),
      new Stringpr('Avalanche'),
      new Stringpr('AVAX'),
      new Byte(new Uint8Array([9])),
      [new avmSerial.InitialState(new Int(0), [transfer(7n, a), transfer(9n, b)])],
    );
    expect(hex(avaxGenesisTx(networkID, EMPTY_ID, holders).bytes)).toBe(signed(asset as never, 'AVM'));

    const stake = [
      { address: a, amount: 5n, locktime: 0n },
      { address: b, amount: 6n, locktime: 3000n },
    ];
    const owner = { locktime: 0n, threshold: 1, addresses: [a] };
    const outputs = stake.map(
      (s) =>
        new TransferableOutput(
          Id.fromString(avaxAssetID),
          s.locktime > 1000n
            ? new pvmSerial.StakeableLockOut(new BigIntPr(s.locktime), transfer(s.amount, s.address))
            : transfer(s.amount, s.address),
        ),
    );
    const rewards = new OutputOwners(new BigIntPr(0n), new Int(1), [new Address(addr(a))]);
    const staker = stakers[0]!;
    const validator = pvmSerial.Validator.fromNative(staker.nodeID, 1000n, 2000n, 11n);
    // Built without its constructor, which would verify the proof (a pairing): the genesis file's proofs are the node's.
    const proof = Object.assign(Object.create(pvmSerial.ProofOfPossession.prototype) as object, {
      publicKey: utils.hexToBuffer(staker.publicKey),
      signature: utils.hexToBuffer(staker.proofOfPossession),
      _type: TypeSymbols.ProofOfPossession,
    }) as pvmSerial.ProofOfPossession;
    const permissionless = new pvmSerial.AddPermissionlessValidatorTx(
      base(new Uint8Array()),
      new pvmSerial.SubnetValidator(validator, Id.fromString(EMPTY_ID)),
      new pvmSerial.Signer(proof),
      outputs,
      rewards,
      rewards,
      new Int(staker.delegationFee),
    );
    const ours = (withKey: boolean) =>
      hex(
        genesisValidatorTx(
          networkID,
          EMPTY_ID,
          avaxAssetID,
          withKey ? staker : { ...staker, publicKey: '', proofOfPossession: '' },
          1000n,
          2000n,
          stake,
          owner,
        ).bytes,
      );
    expect(ours(true)).toBe(signed(permissionless as never, 'PVM'));
    const plain = new pvmSerial.AddValidatorTx(
      base(new Uint8Array()),
      validator,
      outputs,
      rewards,
      new Int(staker.delegationFee),
    );
    expect(ours(false)).toBe(signed(plain as never, 'PVM'));
  });

  it('funds the ewoq key on X and P as the local genesis does, with the five local stakers', () => {
    const world = buildWorld({ accounts: 0 });
    const ewoq = '3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c';
    expect(world.utxosOf('X', ewoq).map((u) => u.amount)).toEqual([300000000000000000n]);
    expect(
      world
        .utxosOf('P', ewoq)
        .map((u) => u.amount)
        .sort(),
    ).toEqual([10000000000000000n, 20000000000000000n]);
    const validators = [...world.stakers.values()];
    expect(validators.map((v) => v.nodeID)).toEqual(NETWORKS.local.stakers.map((s) => s.nodeID));
    expect(
      validators.every((v) => v.weight === 2000000000000000n && world.txs.get(v.txID)?.status === 'Committed'),
    ).toBe(true);
    expect(world.chainID('X')).toBe(NETWORKS.local.xChainID);
    expect(world.chainID('avm')).toBe(NETWORKS.local.xChainID);
    expect(world.tip('P').parentID).toBe(NETWORKS.local.genesisID);
  });

  it('funds --accounts keys with a minting BaseTx in block 1 of X and P that avalanchejs decodes', () => {
    const world = buildWorld({ network: 'fuji', accounts: 3, utxosPerAccount: 2 });
    for (const chain of ['X', 'P'] as const) {
      const block = world.tip(chain);
      expect(block.height).toBe(1);
      const tx = world.txs.get(block.txIDs[0]!)!;
      expect(tx.status).toBe(chain === 'X' ? 'Accepted' : 'Committed');
      const decoded = utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM').unpackTransaction(tx.bytes);
      expect((decoded as unknown as { baseTx: { outputs: unknown[] } }).baseTx.outputs.length).toBe(6);
      for (const account of world.accounts)
        expect(world.utxosOf(chain, account.address).reduce((s, u) => s + u.amount, 0n)).toBe(2_500_000_000_000n);
    }
  });

  it('is deterministic: same options, same world', () => {
    const dump = (options: Parameters<typeof buildWorld>[0]) => {
      const world = buildWorld(options);
      return JSON.stringify([
        [...world.utxos.X.values(), ...world.utxos.P.values()].map((u) => hex(u.bytes)),
        [...world.txs.values()].map((t) => hex(t.bytes)),
        world.accounts,
        world.tip('P').id,
        world.tip('X').id,
      ]);
    };
    expect(dump({ network: 'fuji', accounts: 3, seed: 's' })).toBe(dump({ network: 'fuji', accounts: 3, seed: 's' }));
    expect(dump({ network: 'fuji', accounts: 3, seed: 's' })).not.toBe(
      dump({ network: 'fuji', accounts: 3, seed: 't' }),
    );
  });

  it('builds the same bytes as it always has (a digest pinned before the world was made compact)', () => {
    const digest = (options: Parameters<typeof buildWorld>[0]) => {
      const world = buildWorld(options);
      const hash = createHash('sha256');
      for (const chain of ['X', 'P'] as const) {
        for (const u of world.utxos[chain].values())
          hash.update(`${u.key} ${u.txID} ${u.outputIndex} ${u.amount} ${u.stakeableLocktime} ${hex(u.bytes)}\n`);
        for (let i = 0; i < world.blocks[chain].length; i++) hash.update(`${hex(world.blocks[chain].at(i)!.bytes)}\n`);
        for (const account of world.accounts.slice(0, 5))
          hash.update(`${world.utxosOf(chain, account.address).map((u) => u.key)}\n`);
      }
      // The genesis chains' CreateChainTxs came later; their bytes are pinned by their IDs (wire-p-genesis-chains).
      for (const tx of world.txs.values())
        if (!world.chains.has(tx.id)) hash.update(`${tx.id} ${tx.status} ${hex(tx.bytes)}\n`);
      for (const s of world.stakers.values()) hash.update(`${s.txID} ${s.stake.map((u) => hex(u.bytes))}\n`);
      hash.update(`${JSON.stringify(world.accounts)} ${world.supply.get()}`);
      return hash.digest('hex').slice(0, 16);
    };
    expect(digest({})).toBe('e30b248e2da50408');
    expect(digest({ network: 'fuji', accounts: 3, seed: 's', utxosPerAccount: 2 })).toBe('ec451a37ca659d48');
    expect(digest({ network: 'mainnet', accounts: 40, utxosPerAccount: 25, seed: 'x' })).toBe('cbf99826eb3b9820');
  });

  it("lays out a UTXO's bytes once: every read is the same bytes, whatever else was allocated between", () => {
    const world = buildWorld({ accounts: 20, utxosPerAccount: 50 });
    for (const utxo of world.utxos.X.values()) {
      expect(utxo.bytes).toBe(utxo.bytes);
      // Read field by field, as the engine reads a stored output's type ID.
      expect(Buffer.from(utxo.bytes.buffer, utxo.bytes.byteOffset, utxo.bytes.length).readUInt32BE(70)).toBe(7);
    }
  });

  it('reverts every journaled change, any number of times', () => {
    const world = buildWorld({ accounts: 1 });
    const owner = world.accounts[0]!.address;
    const before = world.utxosOf('X', owner).map((u) => u.key);
    const mark = world.snapshot();
    for (let round = 0; round < 2; round++) {
      for (const utxo of world.utxosOf('X', owner)) world.utxos.X.delete(utxo.key);
      const fresh = makeUtxo({
        txID: cb58Encode(new Uint8Array(32).fill(round + 1)),
        outputIndex: 0,
        assetID: world.network.avaxAssetID,
        amount: 5n,
        owner: { locktime: 0n, threshold: 1, addresses: [owner] },
        stakeableLocktime: 0n,
      });
      world.utxos.X.set(fresh.key, fresh);
      world.time.set(world.time.get() + 10n);
      expect(world.utxosOf('X', owner).map((u) => u.key)).toEqual([fresh.key]);
      world.revert(mark);
      expect(world.utxosOf('X', owner).map((u) => u.key)).toEqual(before);
      expect(world.time.get()).toBe(world.network.startTime);
    }
  });
});
