/**
 * The P-Chain staking and subnet transactions' SyntacticVerify (vms/platformvm/txs/*.go), in the node's order and
 * words: each tx is built by avalanchejs 5.2.0's builders, then altered where an SDK would not go, signed, and issued.
 */
import {
  Address,
  BigIntPr,
  Bytes,
  Id,
  Int,
  OutputOwners,
  TransferableOutput,
  Utxo,
  type UnsignedTx,
  addTxSignatures,
  pvm,
  utils,
} from '@avalabs/avalanchejs';
import { beforeEach, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { proofOfPossession as pop } from '../../mock/engine/bls.ts';
import { Engine } from '../../mock/engine/engine.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import { idOf } from '../../mock/world/codec.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import type { World } from '../../mock/world/world.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const OTHER_SUBNET = utils.base58check.encode(new Uint8Array(32).fill(8));
const OTHER_ASSET = utils.base58check.encode(new Uint8Array(32).fill(9));
const NODE = `NodeID-${cb58Encode(new Uint8Array(20).fill(44))}`;

let world: World;
let engine: Engine;
beforeEach(() => {
  world = buildWorld({ network: 'local', accounts: 0 });
  engine = new Engine(world);
});

function common() {
  const { capacity, excess } = world.feeState.get();
  const price = gasPrice(world.config.fee.minPrice, excess, world.config.fee.excessConversionConstant);
  const utxos = world.utxosOf('P', hex(ewoq)).map((u) => utils.getManagerForVM('PVM').unpack(u.bytes, Utxo));
  return {
    feeState: { capacity, excess, price, timestamp: new Date().toISOString() },
    fromAddressesBytes: [ewoq],
    utxos,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the builders' txs are altered field by field, as no SDK would
type Tx = any;

/** Signs `unsigned` after `alter` changed its tx, and expects platform.issueTx's refusal with `inner`. */
async function refused(unsigned: UnsignedTx, inner: string, alter: (tx: Tx) => void = () => {}): Promise<void> {
  alter(unsigned.getTx());
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  const bytes = unsigned.getSignedTx().toBytes();
  expect(() => engine.issue('P', bytes)).toThrow(
    `couldn't issue tx: failed verification: failed execution: standard tx ${idOf(bytes)} failed execution: ${inner}`,
  );
}

const owners = (threshold: number, ...addrs: Uint8Array[]) =>
  new OutputOwners(
    new BigIntPr(0n),
    new Int(threshold),
    addrs.map((a) => new Address(a)),
  );
const stakeOut = (amount: bigint, asset = world.network.avaxAssetID) =>
  TransferableOutput.fromNative(asset, amount, [ewoq]);
const low = new Uint8Array(20).fill(1);
const high = new Uint8Array(20).fill(0xee);

function validatorTx(overrides: Record<string, unknown> = {}, networkID?: number) {
  const staking = world.config.staking;
  return pvm.newAddPermissionlessValidatorTx(
    {
      ...common(),
      nodeId: NODE,
      subnetId: world.chainIDs.P,
      start: world.time.get(),
      end: world.time.get() + staking.minStakeDuration * 2n,
      weight: staking.minValidatorStake,
      rewardAddresses: [ewoq],
      delegatorRewardsOwner: [ewoq],
      shares: 20_000,
      ...(() => {
        const { publicKey, proof } = pop(new Uint8Array(32).fill(5));
        return { publicKey, signature: proof };
      })(),
      ...overrides,
    },
    sdkContext(world, networkID),
  );
}

describe('AddPermissionlessValidatorTx.SyntacticVerify', () => {
  it('checks the node ID, the stake and the shares before the BaseTx', async () => {
    const weight = world.config.staking.minValidatorStake;
    await refused(
      validatorTx({ nodeId: `NodeID-${cb58Encode(new Uint8Array(20))}` }),
      'validator nodeID cannot be empty',
    );
    await refused(validatorTx(), 'no stake', (tx) => (tx.stake = []));
    await refused(
      validatorTx({ shares: 1_000_001 }),
      'a staker can only require at most 1000000 shares from delegators',
    );
    // The shares are checked before the BaseTx, whose failures the node wraps.
    await refused(
      validatorTx({ memo: new Uint8Array(300) }),
      'failed to verify BaseTx: metadata failed verification: memo exceeds maximum length: 300 > 256',
    );
    await refused(validatorTx({}, 5), 'failed to verify BaseTx: metadata failed verification: tx has wrong network ID');
    await refused(validatorTx(), 'failed to verify BaseTx: outputs not sorted', (tx) => {
      const outs = tx.baseTx.outputs;
      tx.baseTx.outputs = [stakeOut(weight), stakeOut(1n), ...outs];
    });
  });

  it('checks the validator, signer and rewards owners, wrapped', async () => {
    const prefix = 'failed to verify validator, signer, or rewards owners';
    await refused(validatorTx(), `${prefix}: weight of this validator is too low`, (tx) => {
      tx.subnetValidator.validator.weight = new BigIntPr(0n);
    });
    const { proof: otherProof } = pop(new Uint8Array(32).fill(6));
    // avalanchejs's builder refuses a bad proof itself: the proof is swapped after building.
    await refused(validatorTx(), `${prefix}: invalid proof of possession`, (tx) => {
      tx.signer.proof.signature = otherProof;
    });
    await refused(validatorTx(), `${prefix}: addresses not sorted and unique`, (tx) => {
      tx.validatorRewardsOwner = owners(1, high, low);
    });
    await refused(validatorTx(), `${prefix}: output is unspendable`, (tx) => {
      tx.delegatorRewardsOwner = owners(2, low);
    });
    await refused(validatorTx(), `${prefix}: output representation should be optimized`, (tx) => {
      tx.delegatorRewardsOwner = owners(0, low);
    });
  });

  it('wants a key exactly on the Primary Network', async () => {
    await refused(
      validatorTx({ publicKey: undefined, signature: undefined }),
      'invalid signer: hasKey=false != isPrimaryNetwork=true',
    );
    await refused(validatorTx({ subnetId: OTHER_SUBNET }), 'invalid signer: hasKey=true != isPrimaryNetwork=false');
  });

  it('checks the stake outputs: verified, one asset, no overflow, sorted, summing to the weight', async () => {
    const weight = world.config.staking.minValidatorStake;
    await refused(validatorTx(), 'failed to verify output: output has no value', (tx) => {
      tx.stake = [stakeOut(0n), stakeOut(weight)];
    });
    await refused(
      validatorTx(),
      `multiple staked assets: "${world.network.avaxAssetID}" and "${OTHER_ASSET}"`,
      (tx) => (tx.stake = [stakeOut(weight), stakeOut(1n, OTHER_ASSET)]),
    );
    await refused(validatorTx(), 'overflow', (tx) => (tx.stake = [stakeOut(1n << 63n), stakeOut(1n << 63n)]));
    await refused(validatorTx(), 'outputs not sorted', (tx) => {
      tx.stake = [stakeOut(weight / 2n + 1n), stakeOut(weight / 2n - 1n)];
    });
    await refused(validatorTx(), `validator weight mismatch: weight ${weight} != stake ${weight - 1n}`, (tx) => {
      tx.stake = [stakeOut(weight - 1n)];
    });
  });

  it('checks the memo after SyntacticVerify, then the subnet before the staking rules', async () => {
    await refused(validatorTx({ memo: new Uint8Array(4) }), 'memo exceeds maximum length: 4 > 0');
    await refused(validatorTx({ weight: 1n }), 'weight of this validator is too low');
    // Since Durango a staker starts at the chain time: an end before it is a period too short.
    await refused(validatorTx({ end: world.time.get() - 1n }), 'staking period is too short');
    // EndTime() reads int64(End): 2^64-1 is -1, 2^63 the least int64, both before the chain time.
    await refused(validatorTx({ end: 2n ** 64n - 1n }), 'staking period is too short');
    await refused(validatorTx({ end: 2n ** 63n }), 'staking period is too short');
    await refused(validatorTx({ end: 2n ** 63n - 1n }), 'staking period is too long');
    await refused(
      validatorTx({ subnetId: OTHER_SUBNET, publicKey: undefined, signature: undefined, weight: 1n }),
      'not found',
    );
  });
});

describe('AddPermissionlessDelegatorTx.SyntacticVerify', () => {
  const delegatorTx = (overrides: Record<string, unknown> = {}, networkID?: number) =>
    pvm.newAddPermissionlessDelegatorTx(
      {
        ...common(),
        nodeId: NODE,
        subnetId: world.chainIDs.P,
        start: world.time.get(),
        end: world.time.get() + world.config.staking.minStakeDuration,
        weight: world.config.staking.minDelegatorStake,
        rewardAddresses: [ewoq],
        ...overrides,
      },
      sdkContext(world, networkID),
    );

  it('checks the stake, the BaseTx, the validator and owner, then the stake outputs', async () => {
    const weight = world.config.staking.minDelegatorStake;
    await refused(delegatorTx(), 'no stake', (tx) => (tx.stake = []));
    await refused(delegatorTx({}, 5), 'failed to verify BaseTx: metadata failed verification: tx has wrong network ID');
    await refused(
      delegatorTx(),
      'failed to verify validator or rewards owner: weight of this validator is too low',
      (tx) => (tx.subnetValidator.validator.weight = new BigIntPr(0n)),
    );
    await refused(delegatorTx(), 'failed to verify validator or rewards owner: output is unspendable', (tx) => {
      tx.delegatorRewardsOwner = owners(3, low, high);
    });
    await refused(
      delegatorTx(),
      `delegator weight is not equal to total stake weight, delegator weight ${weight} total stake weight ${weight + 1n}`,
      (tx) => (tx.stake = [stakeOut(weight + 1n)]),
    );
    // Syntactically sound: the state's refusal comes next.
    await refused(delegatorTx(), `failed to fetch the validator for ${NODE} on ${world.chainIDs.P}: not found`);
  });
});

describe('subnet transactions refuse the Primary Network, then check their BaseTx unwrapped', () => {
  it('AddSubnetValidatorTx, RemoveSubnetValidatorTx, TransferSubnetOwnershipTx', async () => {
    const P = world.chainIDs.P;
    const add = (subnetId: string, networkID?: number) =>
      pvm.newAddSubnetValidatorTx(
        {
          ...common(),
          nodeId: NODE,
          subnetId,
          start: world.time.get(),
          end: world.time.get() + world.config.staking.minStakeDuration,
          weight: 1n,
          subnetAuth: [0],
        },
        sdkContext(world, networkID),
      );
    await refused(add(P), "can't add primary network validator with AddSubnetValidatorTx");
    await refused(add(OTHER_SUBNET, 5), 'metadata failed verification: tx has wrong network ID');
    await refused(add(OTHER_SUBNET), 'weight of this validator is too low', (tx) => {
      tx.subnetValidator.validator.weight = new BigIntPr(0n);
    });
    const remove = (subnetId: string) =>
      pvm.newRemoveSubnetValidatorTx({ ...common(), nodeId: NODE, subnetId, subnetAuth: [0] }, sdkContext(world));
    await refused(remove(P), "can't remove primary network validator with RemoveSubnetValidatorTx");
    const transfer = (subnetId: string) =>
      pvm.newTransferSubnetOwnershipTx(
        { ...common(), subnetId, subnetAuth: [0], subnetOwners: [ewoq] },
        sdkContext(world),
      );
    await refused(transfer(P), 'cannot transfer ownership of a permissionless subnet');
    // The owner is checked before the memo.
    await refused(transfer(OTHER_SUBNET), 'output is unspendable', (tx) => {
      tx.subnetOwners = owners(2, low);
      tx.baseTx.memo = new Bytes(new Uint8Array(1));
    });
  });
});

describe('ExportTx.SyntacticVerify', () => {
  it('wants exported outputs before it checks the BaseTx', async () => {
    const exportTx = (networkID?: number) =>
      pvm.newExportTx(
        { ...common(), destinationChainId: world.chainIDs.X, outputs: [stakeOut(world.config.txFee)] },
        sdkContext(world, networkID),
      );
    await refused(exportTx(5), 'no export outputs', (tx) => (tx.outs = []));
    await refused(exportTx(5), 'metadata failed verification: tx has wrong network ID');
  });
});

describe('CreateChainTx.SyntacticVerify', () => {
  const chain = (overrides: Record<string, unknown> = {}) =>
    pvm.newCreateChainTx(
      {
        ...common(),
        subnetId: OTHER_SUBNET,
        chainName: 'chain',
        vmId: utils.base58check.encode(new Uint8Array(32).fill(3)),
        fxIds: [],
        genesisData: {},
        subnetAuth: [0],
        ...overrides,
      },
      sdkContext(world),
    );

  it('checks its own fields before the BaseTx, in the node order', async () => {
    await refused(chain({ subnetId: world.chainIDs.P }), "new blockchain can't be validated by primary network");
    await refused(chain({ chainName: 'x'.repeat(129) }), 'name too long');
    await refused(chain({ vmId: utils.base58check.encode(new Uint8Array(32)) }), 'invalid VM ID');
    await refused(chain(), 'feature extensions IDs must be sorted and unique', (tx) => {
      tx.fxIds = [new Id(new Uint8Array(32).fill(2)), new Id(new Uint8Array(32).fill(1))];
    });
    await refused(chain({ chainName: 'my-chain' }), 'illegal name character');
    // A chain on a subnet the P-Chain does not know passes the syntax and fails on the state.
    await refused(chain(), 'not found');
  });
});
