/**
 * The Info API's answers that depend on the network (api/info/service.go): its ID and name, and the X-Chain's static
 * fees. The node-level answers (node ID, version, peers, chains' aliases) stay in ../state.ts.
 */
import type { Read } from './reads.ts';
import type { World } from './world.ts';

export function infoReads(world: World, txFeeExample: Record<string, string>): Record<string, Read> {
  return {
    getNetworkID: () => ({ networkID: String(world.network.networkID) }),
    getNetworkName: () => ({ networkName: world.network.networkName }),
    // The P-Chain's static fees of the example are the local network's; the X-Chain's are the world's.
    getTxFee: () => ({ ...txFeeExample, txFee: String(world.config.txFee), createAssetTxFee: String(world.config.createAssetTxFee) }),
  };
}
