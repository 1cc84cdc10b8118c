/**
 * P-Chain transactions built by avalanchejs 5.2.0 from the ewoq key's UTXOs in a world built in process, signed by
 * ewoq: Primary Network validators and delegators.
 */
import { type UnsignedTx, Utxo, addTxSignatures, pvm, utils } from '@avalabs/avalanchejs';
import { proofOfPossession as pop } from '../../mock/engine/bls.ts';
import type { World } from '../../mock/world/world.ts';
import { EWOQ, ewoq, sdkContext, sdkFeeState } from './sdk-world.ts';

export const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
export const unpackUtxo = (bytes: Uint8Array) => utils.getManagerForVM('PVM').unpack(bytes, Utxo);

export async function signByEwoq(unsigned: UnsignedTx): Promise<Uint8Array> {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [EWOQ] });
  return unsigned.getSignedTx().toBytes();
}

export function pStakers(world: World) {
  const utxosOf = (owner: Uint8Array) => world.utxosOf('P', hex(owner)).map((u) => unpackUtxo(u.bytes));
  return {
    utxosOf,
    /** A signed AddPermissionlessValidatorTx, paid and staked from ewoq's UTXOs (or `utxos`), rewards to `owner`. */
    validatorTx(options: {
      nodeID: string;
      start: bigint;
      end: bigint;
      /** Makes the validator's BLS key. */
      seed: number;
      owner?: Uint8Array;
      utxos?: Utxo[];
      minIssuanceTime?: bigint;
    }): Promise<Uint8Array> {
      const { nodeID, start, end, seed, owner = ewoq, utxos = utxosOf(ewoq), minIssuanceTime } = options;
      const { publicKey, proof } = pop(new Uint8Array(32).fill(seed));
      return signByEwoq(
        pvm.newAddPermissionlessValidatorTx(
          {
            feeState: sdkFeeState(world),
            fromAddressesBytes: [ewoq],
            utxos,
            ...(minIssuanceTime === undefined ? {} : { minIssuanceTime }),
            nodeId: nodeID,
            subnetId: world.chainIDs.P,
            start,
            end,
            weight: world.config.staking.minValidatorStake,
            rewardAddresses: [owner],
            delegatorRewardsOwner: [owner],
            shares: 20_000,
            publicKey,
            signature: proof,
          },
          sdkContext(world),
        ),
      );
    },
    /** A signed AddPermissionlessDelegatorTx from ewoq's UTXOs, its reward to `owner`. */
    delegatorTx(options: { nodeID: string; start: bigint; end: bigint; owner: Uint8Array }): Promise<Uint8Array> {
      const { nodeID, start, end, owner } = options;
      return signByEwoq(
        pvm.newAddPermissionlessDelegatorTx(
          {
            feeState: sdkFeeState(world),
            fromAddressesBytes: [ewoq],
            utxos: utxosOf(ewoq),
            nodeId: nodeID,
            subnetId: world.chainIDs.P,
            start,
            end,
            weight: world.config.staking.minDelegatorStake,
            rewardAddresses: [owner],
          },
          sdkContext(world),
        ),
      );
    },
  };
}
