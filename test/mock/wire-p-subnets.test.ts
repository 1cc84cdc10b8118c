/**
 * The P-Chain's subnet and chain lists as AvalancheGo v1.14.2 writes them: their order (state.go keeps subnets and
 * chains in linkeddbs, which iterate newest first, behind caches that append what is added after the first load), null
 * where the reply's slice stays nil, and the errors of IDs that name another kind of transaction.
 */
import { type UnsignedTx, Utxo, addTxSignatures, pvm, secp256k1, utils } from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { EMPTY_ID } from '../../mock/world/networks.ts';
import { pChainReads } from '../../mock/world/reads-p.ts';
import type { World } from '../../mock/world/world.ts';
import { goStringify } from '../../runtime/server/encode.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
/** An ID no transaction has. */
const UNKNOWN = cb58Encode(new Uint8Array(32).fill(7));

let world: World;
let engine: Engine;
let reads: ReturnType<typeof pChainReads>;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world);
  // One reads object per node, as the node keeps one state with its caches.
  reads = pChainReads(world, TX_TYPES);
});

const fromP = () => {
  const { capacity, excess } = world.feeState.get();
  const price = gasPrice(world.config.fee.minPrice, excess, world.config.fee.excessConversionConstant);
  return {
    feeState: { capacity, excess, price, timestamp: new Date().toISOString() },
    fromAddressesBytes: [ewoq],
    utxos: world.utxosOf('P', hex(ewoq)).map((u) => utils.getManagerForVM('PVM').unpack(u.bytes, Utxo)),
  };
};

async function issue(unsigned: UnsignedTx, auth = false): Promise<string> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  if (auth) unsigned.credentials.at(-1)!.setSignature(0, await secp256k1.sign(unsigned.toBytes(), EWOQ));
  return engine.issue('P', unsigned.getSignedTx().toBytes());
}
const createSubnet = () => issue(pvm.newCreateSubnetTx({ ...fromP(), subnetOwners: [ewoq] }, sdkContext(world)));
const createChain = (subnetId: string, chainName: string) =>
  issue(
    pvm.newCreateChainTx(
      { ...fromP(), chainName, subnetId, vmId: world.chainIDs.X, fxIds: [], genesisData: {}, subnetAuth: [0] },
      sdkContext(world),
    ),
    true,
  );
const names = () => (reads.getBlockchains() as { blockchains: Array<{ name: string }> }).blockchains.map((c) => c.name);
const answer = (read: (p: Record<string, unknown>) => unknown, params: Record<string, unknown>) => {
  try {
    return goStringify(read(params));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
};

describe('P-Chain subnet and chain lists', () => {
  // genesis/genesis.go:429 lists X then C; state.go:1676 AddChain, :3142 writeChains Puts them in that order into a
  // linkeddb whose Put adds at the head (database/linkeddb/linkeddb.go:111), and vm.go:329 createSubnet loads them at
  // start-up through GetChains (state.go:1088), which iterates from the head: the C-Chain first.
  it("lists the Primary Network's chains newest first, as the node loads them at start-up", () => {
    expect(names()).toEqual(['C-Chain', 'X-Chain']);
    expect(reads.validates({})).toEqual({ blockchainIDs: [world.chainIDs.C, world.chainIDs.X] });
  });

  // state.go:946 GetSubnetIDs and :1088 GetChains read the linkeddb (newest first) on their first call and cache the
  // list; AddSubnet (:971) and AddChain (:1117) append to a cached list. service.go:1348 GetBlockchains walks the
  // subnets in that order, each subnet's chains in theirs, then the Primary Network's.
  it('orders subnets and their chains as the node caches them: newest first at the first read, then appended', async () => {
    const a = await createSubnet();
    const b = await createSubnet();
    await createChain(b, 'b1');
    await createChain(a, 'a1');
    await createChain(a, 'a2');
    expect(names()).toEqual(['b1', 'a2', 'a1', 'C-Chain', 'X-Chain']);
    const c = await createSubnet();
    await createChain(a, 'a3');
    await createChain(c, 'c1');
    expect(names()).toEqual(['b1', 'a2', 'a1', 'a3', 'c1', 'C-Chain', 'X-Chain']);
    const subnets = (reads.getSubnets({}) as { subnets: Array<{ id: string }> }).subnets.map((s) => s.id);
    expect(subnets).toEqual([b, a, c, EMPTY_ID]);
  });

  it('validates answers a subnet it reads first after two chains newest first', async () => {
    const a = await createSubnet();
    const one = await createChain(a, 'one');
    const two = await createChain(a, 'two');
    expect(reads.validates({ subnetID: a })).toEqual({ blockchainIDs: [two, one] });
  });

  // service.go:470 GetSubnetsResponse.Subnets stays nil when no given ID names a subnet (an unknown ID is skipped,
  // service.go:579): `null` on the wire.
  it('getSubnets answers null when no given ID names a subnet', () => {
    expect(answer(reads.getSubnets, { ids: [UNKNOWN] })).toBe('{"subnets":null}');
  });

  // state.go:1016 GetSubnetOwner: a P-Chain tx that is not a CreateSubnetTx is `"<id>" is not a subnet`, an error that
  // getSubnet (service.go:404) and getSubnets (service.go:583, not ErrNotFound) return as it is.
  it('getSubnet and getSubnets refuse the ID of a P-Chain tx that is not a subnet, as GetSubnetOwner does', () => {
    const chain = world.chainIDs.X;
    expect(answer(reads.getSubnet, { subnetID: chain })).toBe(`error: "${chain}" is not a subnet`);
    expect(answer(reads.getSubnets, { ids: [chain] })).toBe(`error: "${chain}" is not a subnet`);
    expect(answer(reads.getSubnet, { subnetID: UNKNOWN })).toBe('error: not found');
    // service.go:1303 Validates words it the same way.
    expect(answer(reads.validates, { subnetID: chain })).toBe(`error: "${chain}" is not a subnet`);
  });

  // service.go:972 GetL1ValidatorArgs.ValidationID is an ids.ID: absent, it is the zero ID, which :995 writes with %q.
  it('getL1Validator without a validationID names the zero ID', () => {
    expect(answer(reads.getL1Validator, {})).toBe(`error: fetching L1 validator "${EMPTY_ID}" failed: not found`);
  });
});

describe('P-Chain validator sets at a height', () => {
  // service.go:1925 (v1.14.0 on) wraps the manager's error as `failed to get validator set at %d: %w`;
  // validators/manager.go:264 words a height past the tip.
  it('getValidatorsAt past the tip names the height it was asked', () => {
    const tip = world.tip('P').height;
    expect(answer(reads.getValidatorsAt, { height: tip + 5 })).toBe(
      `error: failed to get validator set at ${tip + 5}: failed to fetch validator set at unfinalized height with ` +
        `SubnetID = ${EMPTY_ID}: current P-chain height (${tip}) < requested P-Chain height (${tip + 5})`,
    );
  });
});

describe('P-Chain getBalance', () => {
  // service.go:131 GetBalanceResponse.UTXOIDs is only appended to (:218): no UTXO leaves it nil, `null` on the wire.
  it('answers utxoIDs null for an address with no UTXO, a list otherwise', () => {
    const none = goStringify(reads.getBalance({ addresses: ['P-local1g65uqn6t77p656w64023nh8nd9updzmxyymev2'] }));
    expect(none).toContain('"lockedNotStakeables":{},"utxoIDs":null}');
    const ewoqAddress = 'P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';
    expect(goStringify(reads.getBalance({ addresses: [ewoqAddress] }))).toMatch(/"utxoIDs":\[\{"txID":/);
  });
});
