/**
 * The P-Chain's reads of its subnets and chains (vms/platformvm/service.go getSubnet, getSubnets, getBlockchains,
 * getBlockchainStatus, validatedBy, validates), in the node's order and words.
 */
import { EMPTY_ID } from './networks.ts';
import { type Params, formatAddress, idError, parseID } from './reads.ts';
import type { World } from './world.ts';

const subnetOf = (params: Params<'subnetID'>) => parseID(params.subnetID) ?? EMPTY_ID;

/**
 * The order of a list the node's state caches (state.go:946 GetSubnetIDs, :1088 GetChains): its first read loads the
 * persisted items from a linkeddb, which iterates newest first (database/linkeddb/linkeddb.go:111 puts a new key at the
 * head), and what is added later is appended to the cached list (state.go:971 AddSubnet, :1117 AddChain). Items are
 * given oldest first, as the world keeps them; `preloaded`, the world's order is the cached one already.
 */
function cachedOrder(preloaded: boolean): (key: string, items: string[]) => string[] {
  const loaded = new Map<string, number>();
  return (key, items) => {
    const count = Math.min(loaded.get(key) ?? (preloaded ? 0 : items.length), items.length);
    loaded.set(key, count);
    return [...items.slice(0, count).reverse(), ...items.slice(count)];
  };
}

/** One per node: the order of its lists depends on when they were first read. */
export function pChainListReads(world: World) {
  // A fork's lists come in the source's order, as its caches hold them: taken as already loaded.
  const ordered = cachedOrder(world.fork !== undefined);
  const chainsOf = (subnetID: string) =>
    ordered(
      `chains ${subnetID}`,
      [...world.chains.values()].filter((c) => c.subnetID === subnetID).map((c) => c.id),
    );
  const subnetIDs = () =>
    ordered(
      'subnets',
      [...world.subnets.keys()].filter((id) => id !== EMPTY_ID),
    );
  // vm.go:303 initBlockchains loads the Primary Network's chains at start-up (vm.go:329 createSubnet).
  chainsOf(EMPTY_ID);
  /** state.go:978 GetSubnetOwner's refusal of an ID that names no subnet. */
  const notASubnet = (id: string) =>
    new Error(world.inPState(id) ? `${JSON.stringify(id)} is not a subnet` : 'not found');
  return {
    getSubnet: (p: Params<'subnetID'>) => {
      const subnetID = subnetOf(p);
      if (subnetID === EMPTY_ID) throw new Error("the primary network isn't a subnet");
      const subnet = world.subnets.get(subnetID);
      if (!subnet) throw notASubnet(subnetID);
      const c = subnet.conversion;
      return {
        isPermissioned: !c,
        controlKeys: subnet.owner.addresses.map((a) => formatAddress(world, 'P', a)),
        threshold: String(subnet.owner.threshold),
        locktime: String(subnet.owner.locktime),
        subnetTransformationTxID: EMPTY_ID,
        conversionID: c?.conversionID ?? EMPTY_ID,
        managerChainID: c?.chainID ?? EMPTY_ID,
        managerAddress: c ? c.address : null,
      };
    },
    getSubnets: (p: Params<'ids'>) => {
      const ids = Array.isArray(p.ids) ? (p.ids as string[]) : [];
      const json = (id: string) => {
        const subnet = world.subnets.get(id);
        return {
          id,
          controlKeys: (subnet?.owner.addresses ?? []).map((a) => formatAddress(world, 'P', a)),
          threshold: String(subnet?.owner.threshold ?? 0),
        };
      };
      if (ids.length === 0) return { subnets: [...subnetIDs().map(json), json(EMPTY_ID)] };
      // service.go:551: an ID that is no tx is skipped, another tx's fails; a reply with none stays nil (`null`).
      const found = [...new Set(ids)].filter((id) => {
        if (id === EMPTY_ID || world.subnets.has(id)) return true;
        if (world.inPState(id)) throw notASubnet(id);
        return false;
      });
      return { subnets: found.length > 0 ? found.map(json) : null };
    },
    // service.go:1348: each subnet's chains in the order of the subnets, then the Primary Network's.
    getBlockchains: () => {
      const order = [...subnetIDs(), EMPTY_ID].flatMap(chainsOf).map((id) => world.chains.get(id)!);
      return { blockchains: order.map((c) => ({ id: c.id, name: c.name, subnetID: c.subnetID, vmID: c.vmID })) };
    },
    getBlockchainStatus: (p: Params<'blockchainID'>) => {
      const given = typeof p.blockchainID === 'string' ? p.blockchainID : '';
      if (given === '') throw new Error("argument 'blockchainID' not given");
      const aliased = world.chainID(given);
      // The mock node validates every chain it serves: the Primary Network's.
      if (aliased)
        return {
          status:
            world.chains.get(aliased)?.subnetID === EMPTY_ID || aliased === world.chainIDs.P
              ? ('Validating' as const)
              : ('Syncing' as const),
        };
      if (!parseID(given)) throw new Error(`problem parsing blockchainID ${JSON.stringify(given)}: ${idError(given)}`);
      // status.BlockchainStatus writes UnknownChain as `Unknown` (vms/platformvm/status/blockchain_status.go).
      return { status: world.chains.has(given) ? ('Created' as const) : ('Unknown' as const) };
    },
    validatedBy: (p: Params<'blockchainID'>) => {
      const id = String(p.blockchainID ?? '');
      if (id === world.chainIDs.P) return { subnetID: EMPTY_ID };
      const chain = world.chains.get(id);
      if (chain) return { subnetID: chain.subnetID };
      if (world.inPState(id)) throw new Error(`${JSON.stringify(id)} is not a blockchain`);
      throw new Error(`problem retrieving blockchain ${JSON.stringify(id)}: not found`);
    },
    validates: (p: Params<'subnetID'>) => {
      const subnetID = subnetOf(p);
      if (subnetID !== EMPTY_ID && !world.subnets.has(subnetID)) {
        if (world.inPState(subnetID)) throw notASubnet(subnetID);
        throw new Error(`problem retrieving subnet ${JSON.stringify(subnetID)}: not found`);
      }
      return { blockchainIDs: chainsOf(subnetID) };
    },
  };
}
