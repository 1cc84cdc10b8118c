/**
 * The mock's handlers are the generated server's: each endpoint's table is checked by the compiler against its
 * `*Handlers` interface (mock/handlers.ts), the names of its handlers' params too (BoundHandlers), and at run time
 * every handler and check names a method of the spec.
 */
import { describe, expect, it } from 'vitest';
import {
  type HandlersOf,
  type BoundHandlers,
  type Served,
  handlersByWireName,
  mockHandlers,
} from '../../mock/handlers.ts';
import { type EndpointName, ENDPOINTS, endpointModel } from '../../mock/spec.ts';
import { MockState } from '../../mock/state.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import type { Params } from '../../mock/world/reads.ts';

describe('typed mock handlers', () => {
  const state = new MockState(buildWorld({}), [], { mode: 'manual' });

  it.each(Object.keys(ENDPOINTS) as EndpointName[])('%s: every handler and check is a method of the spec', (name) => {
    const scope = name === 'indexer' ? 'P/block' : name === 'proposervm' ? 'P' : undefined;
    const { handlers, checks = {} } = mockHandlers(state, scope)[name]();
    const methods = endpointModel(name).methods.map((m) => m.shortName);
    expect(Object.keys(handlers).filter((key) => !methods.includes(key))).toEqual([]);
    expect(Object.keys(checks).filter((key) => !methods.includes(key))).toEqual([]);
    expect(Object.keys(handlers).length).toBeGreaterThan(0);
  });

  it.each(Object.keys(ENDPOINTS) as EndpointName[])('%s: a handler for every method, by its wire name', (name) => {
    const scope = name === 'indexer' ? 'P/block' : name === 'proposervm' ? 'P' : undefined;
    const answers = handlersByWireName(state, name, scope);
    const model = endpointModel(name);
    expect([...answers.keys()]).toEqual(model.methods.map((m) => m.name));
    expect(model.methods.filter((m) => typeof answers.get(m.name)?.handler !== 'function')).toEqual([]);
    // Each method's check is the one the endpoint's table gives its handler name (a table made anew: new functions).
    const { checks = {} } = mockHandlers(state, scope)[name]();
    const checked = (check: unknown) => (typeof check === 'function' ? check.name : undefined);
    for (const method of model.methods)
      expect(checked(answers.get(method.name)?.check), method.name).toBe(
        checked((checks as Record<string, unknown>)[method.shortName]),
      );
    expect([...answers.values()].some((answer) => answer.check) || Object.keys(checks).length === 0).toBe(true);
  });
});

// Checked by `tsc` (npm run typecheck), not by vitest: the compiler refuses an answer of the wrong shape and a handler
// the spec lacks.
// @ts-expect-error: platform.getHeight answers its height as a string
({ getHeight: () => ({ height: 1 }) }) satisfies Partial<HandlersOf<'p-chain'>>;
// @ts-expect-error: the P-Chain has no getGasPrice
({ getGasPrice: () => ({}) }) satisfies Partial<HandlersOf<'p-chain'>>;
// A served endpoint's handlers are its whole interface (`/ext/bc/C/avax`'s too): none of its methods left out.
const getUTXOsOnly = { getUTXOs: () => ({ numFetched: '0', utxos: [], endIndex: { address: '', utxo: '' } }) };
// @ts-expect-error: only avax.getUTXOs has a handler
({ handlers: getUTXOsOnly }) satisfies Served<'c-avax'>;

// Handlers bound to their methods (BoundHandlers): each names only its method's params and answers its result.
const getTx = (p: Params<'txID' | 'encoding'>) => ({ tx: String(p.txID), encoding: 'hex' as const });
const reads = { getTx, getHeight: () => ({ height: '1' }) };
reads satisfies BoundHandlers<'p-chain', typeof reads>;
const misnamed = { getTx: (p: Params<'txID' | 'encodings'>) => ({ tx: String(p.txID), encoding: 'hex' as const }) };
// @ts-expect-error: platform.getTx has no param `encodings`
misnamed satisfies BoundHandlers<'p-chain', typeof misnamed>;
const noParams = { getHeight: (p: Params<'height'>) => ({ height: String(p.height) }) };
// @ts-expect-error: platform.getHeight has no params at all
noParams satisfies BoundHandlers<'p-chain', typeof noParams>;
const numbered = { getHeight: () => ({ height: 1 }) };
// @ts-expect-error: platform.getHeight answers its height as a string
numbered satisfies BoundHandlers<'p-chain', typeof numbered>;
const spread = { ...reads, getGasPrice: () => ({}) };
// @ts-expect-error: the P-Chain has no getGasPrice, though it comes in a spread
spread satisfies BoundHandlers<'p-chain', typeof spread>;
