/**
 * What avalanchejs 5.2.0's builders need from a world built in process: the local network's funded ewoq key and the
 * Context (the wire path to the same context, Context.getContextFromURI, is test/mock/sdk-context.test.ts).
 */
import { pvm, secp256k1, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { EWOQ_PRIVATE_KEY } from '../../mock/world/networks.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import type { World } from '../../mock/world/world.ts';

export const EWOQ = new Uint8Array(utils.base58check.decode(EWOQ_PRIVATE_KEY.slice('PrivateKey-'.length)));
export const ewoq = new Uint8Array(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(EWOQ)));

/** The Context of `world`'s network; `networkID` to build a tx for another network. */
export function sdkContext(world: World, networkID = world.network.networkID) {
  const f = world.config.fee;
  return {
    networkID,
    hrp: world.network.hrp,
    xBlockchainID: world.chainIDs.X,
    pBlockchainID: world.chainIDs.P,
    cBlockchainID: world.chainIDs.C,
    avaxAssetID: world.network.avaxAssetID,
    baseTxFee: world.config.txFee,
    createAssetTxFee: world.config.createAssetTxFee,
    platformFeeConfig: {
      weights: { 0: f.weights[0], 1: f.weights[1], 2: f.weights[2], 3: f.weights[3] },
      maxCapacity: f.maxCapacity,
      maxPerSecond: f.maxPerSecond,
      targetPerSecond: f.targetPerSecond,
      minPrice: f.minPrice,
      excessConversionConstant: f.excessConversionConstant,
    },
  };
}

/** The P-Chain fee state as avalanchejs' builders take it, at `world`'s current state. */
export function sdkFeeState(world: World) {
  const { capacity, excess } = world.feeState.get();
  const fee = world.config.fee;
  return {
    capacity,
    excess,
    price: gasPrice(fee.minPrice, excess, fee.excessConversionConstant),
    timestamp: new Date().toISOString(),
  };
}

/** A local node started before the file's tests and closed after them, with avalanchejs' P-Chain API on it. */
export function localPChain(): { node: RunningMockNode; api: pvm.PVMApi } {
  const local = {} as { node: RunningMockNode; api: pvm.PVMApi };
  beforeAll(async () => {
    local.node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
    local.api = new pvm.PVMApi(local.node.url);
  });
  afterAll(() => local.node?.close());
  return local;
}
