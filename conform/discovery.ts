/**
 * Params a real node knows. The spec's examples name IDs from the docs, which a given node may never have seen, so the
 * runner first asks the node for live values (its height, a block at that height in JSON, the transactions in it,
 * chains, validators, subnets, L1 validators, the last container of its default index) and swaps them into the
 * examples. Whatever cannot be found stays as the example gives it; the node then answers a documented "not found",
 * which is still conformance evidence.
 */
import { PRIMARY_NETWORK_ID, avalancheFormats } from '../generators/formats.ts';
import type { Json, MethodModel } from '../generators/model/types.ts';
import { isSchema } from '../generators/model/schema-walk.ts';
import { chainOf } from './spec.ts';

type Chain = 'P' | 'X';

const isID = avalancheFormats['avax-cb58'];
const isAddress = avalancheFormats['avax-address'];
const MAX_PER_KIND = 20;

export class Facts {
  private readonly values = new Map<string, string[]>();

  add(kind: string, value: string): void {
    const list = this.values.get(kind) ?? [];
    if (!list.includes(value) && list.length < MAX_PER_KIND) list.push(value);
    this.values.set(kind, list);
  }

  first(...kinds: string[]): string | undefined {
    for (const kind of kinds) if (this.values.get(kind)?.length) return this.values.get(kind)![0];
    return undefined;
  }

  list(kind: string): string[] {
    return this.values.get(kind) ?? [];
  }

  /** How many values of each kind were found, for the report. */
  counts(): Record<string, number> {
    return Object.fromEntries(
      [...this.values]
        .filter(([, v]) => v.length > 0)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, v.length]),
    );
  }

  /** Collects every reusable value from a successful answer of `method`. */
  harvest(method: MethodModel, result: Json): void {
    const chain = chainOf(method);
    if (chain && method.shortName === 'getHeight' && isSchema(result) && typeof result.height === 'string')
      this.add(`height:${chain}`, result.height);
    this.walk(result, '', chain);
  }

  private walk(value: Json, key: string, chain: Chain | undefined): void {
    if (typeof value === 'string') return this.harvestString(value, key, chain);
    if (Array.isArray(value)) return value.forEach((item) => this.walk(item, key, chain));
    if (!isSchema(value)) return;
    const id = typeof value.id === 'string' ? value.id : undefined;
    if (id && chain && 'unsignedTx' in value) this.add(`txID:${chain}`, id);
    if (id && chain && 'parentID' in value) this.add(`blockID:${chain}`, id);
    if (id && 'vmID' in value) this.add('blockchainID', id);
    if (id && 'bytes' in value && 'index' in value) this.add('containerID', id);
    for (const [childKey, child] of Object.entries(value)) this.walk(child, childKey, chain);
  }

  private harvestString(value: string, key: string, chain: Chain | undefined): void {
    const prefix = value.slice(0, value.indexOf('-'));
    if ((prefix === 'P' || prefix === 'X') && isAddress(value)) this.add(`address:${prefix}`, value);
    if (key === 'nodeID' && value.startsWith('NodeID-')) this.add('nodeID', value);
    if (!isID(value)) return;
    if (key === 'validationID') this.add('validationID', value);
    if (key === 'subnetID' && value !== PRIMARY_NETWORK_ID) this.add('subnetID', value);
    if (key === 'assetID') this.add('assetID', value);
    // A `txID` field may name another chain's transaction (an import's input), so it only backs up IDs taken from txs.
    if (key === 'txID' && chain) this.add(`txRef:${chain}`, value);
  }
}

/** The example's params with live values swapped in where the node's own answers provided them. */
export function substituteParams(
  method: MethodModel,
  params: Record<string, Json>,
  facts: Facts,
): Record<string, Json> {
  const chain = chainOf(method);
  const out: Record<string, Json> = { ...params };
  const swap = (name: string, value: string | undefined, wrap: (v: string) => Json = (v) => v) => {
    if (value !== undefined) out[name] = wrap(value);
  };
  for (const [name, value] of Object.entries(params)) {
    const isId = typeof value === 'string' && isID(value) && value !== PRIMARY_NETWORK_ID;
    switch (name) {
      case 'height':
        // Keeps the example's form (string or number) and named heights such as "proposed".
        if (chain && (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)))) {
          swap(name, facts.first(`height:${chain}`), (h) => (typeof value === 'number' ? Number(h) : h));
        }
        break;
      case 'blockID':
        if (chain) swap(name, facts.first(`blockID:${chain}`));
        break;
      case 'txID':
        if (chain) swap(name, facts.first(`txID:${chain}`, `txRef:${chain}`));
        break;
      case 'address':
        if (chain) swap(name, facts.first(`address:${chain}`));
        break;
      case 'addresses':
        if (chain && Array.isArray(value) && facts.first(`address:${chain}`)) {
          swap(name, facts.first(`address:${chain}`), (a) => [a]);
          // A start index belongs to the example's addresses.
          delete out.startIndex;
        }
        break;
      case 'assetID':
        if (isId) swap(name, facts.first('assetID'));
        break;
      case 'subnetID':
        if (isId) swap(name, facts.first('subnetID'));
        break;
      case 'ids':
        if (Array.isArray(value)) swap(name, facts.first('subnetID'), (s) => [s]);
        break;
      case 'blockchainID':
      case 'chain':
        if (isId) swap(name, facts.first('blockchainID'));
        break;
      case 'nodeIDs':
        if (Array.isArray(value)) swap(name, facts.first('nodeID'), (n) => [n]);
        break;
      case 'validationID':
        swap(name, facts.first('validationID'));
        break;
      // An index's container (the endpoint's default index, the P-Chain's blocks).
      case 'id':
        if (method.service === 'index') swap(name, facts.first('containerID'));
        break;
    }
  }
  return out;
}

/**
 * Calls a method and returns its result when it succeeded (undefined when the call failed or the method is unsafe or
 * not served); the runner harvests every success into the facts. Throws for a method the spec does not have.
 */
export type Probe = (method: string, params: Record<string, Json>) => Promise<Json | undefined>;

/** The discovery chain, cheapest and most productive calls first. Every call is a read. */
export async function discover(probe: Probe, facts: Facts): Promise<void> {
  for (const [chain, service] of [
    ['P', 'platform'],
    ['X', 'avm'],
  ] as const) {
    await probe(`${service}.getHeight`, {});
    const height = Number(facts.first(`height:${chain}`) ?? NaN);
    // The newest block may carry no transaction (P-Chain commit/abort blocks), so a few older ones are tried.
    for (
      let back = 0;
      Number.isFinite(height) && back < 5 && height - back >= 0 && !facts.first(`txID:${chain}`);
      back++
    ) {
      await probe(`${service}.getBlockByHeight`, { height: String(height - back), encoding: 'json' });
    }
  }
  await probe('platform.getBlockchains', {});
  await probe('platform.getCurrentValidators', {});
  await probe('platform.getSubnets', {});
  for (const subnetID of facts.list('subnetID').slice(0, 3)) {
    if (facts.first('validationID')) break;
    await probe('platform.getCurrentValidators', { subnetID });
  }
  await probe('platform.getStakingAssetID', {});
  // Served only with --index-enabled; a node without its indexes answers 404 and finds nothing here.
  await probe('index.getLastAccepted', {});
}
