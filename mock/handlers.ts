/**
 * The mock's handlers: one object per endpoint, each checked against the generated server's handler interface, so a
 * handler the spec does not have, or an answer of the wrong shape, fails to compile. Nothing is answered from the
 * examples or the schemas: a method without a handler answers as one the mock does not simulate (./node.ts).
 *
 * `checks` are the handlers that also word the node's refusal of params the schema rejects (sizes, missing values:
 * the node's handlers, not its decoder, refuse them) without changing anything: every read, and for a write a check
 * of its own.
 */
import type { Endpoint, EndpointOptions, HealthHealthResult } from '../generated/server/dist/index.js';
import { checkAlias } from './admin.ts';
import { dbGet, nodeConfig } from './admin-node.ts';
import { TX_TYPES, issueTx } from './engine/handlers.ts';
import { ENDPOINTS, type EndpointName } from './spec.ts';
import type { AtomicApi } from './cchain/avax.ts';
import type { MockState } from './state.ts';
import type { IndexName } from './world/indexer.ts';
import type { HealthKind } from './world/types.ts';
import type { Params } from './world/reads.ts';
import { infoReads } from './world/reads-info.ts';
import { indexReads, proposervmReads } from './world/reads-index.ts';
import { nodeReads } from './world/reads-node.ts';
import { pChainReads } from './world/reads-p.ts';
import { staticReads } from './world/reads-static.ts';
import { xChainReads } from './world/reads-x.ts';
import { allValidatorsAt } from './world/warp-sets.ts';

/** What the generated server takes for an endpoint: its handlers, any of which may be left out. */
export type HandlersOf<E extends EndpointName> = Parameters<(typeof ENDPOINTS)[E]['create']>[0];

/** A handler's params (the generated `*Params`) and its answer (the generated `*Result`, raw or promised). */
type ParamsOf<H> = H extends (params: infer P, context: never) => unknown ? P : never;
type AnswerOf<H> = H extends (params: never, context: never) => infer A ? A : never;
/** The names of a method's params; none for a method without params (the generated `Record<string, never>`). */
type NamesOf<P> = string extends keyof P ? never : keyof P;

/**
 * Handlers `R` (the world's reads, the engine's issue methods, the node state's methods) bound to endpoint E's
 * interface, as arrow types, which compare params one way (the interface's methods compare them both ways): each is a
 * method of E, names only params of that method (a read types the params it looks at by name alone, values unknown:
 * ./world/reads.ts Params), takes the method's generated params and answers its result.
 */
export type BoundHandlers<E extends EndpointName, R> = {
  [K in keyof R]: K extends keyof HandlersOf<E>
    ? BoundHandler<HandlersOf<E>[K], R[K]>
    : `${E} has no method ${K & string}`;
};
type BoundHandler<H, F> = F extends (params: infer S) => unknown
  ? [Exclude<keyof S, NamesOf<ParamsOf<H>>>] extends [never]
    ? (params: ParamsOf<H>) => AnswerOf<H>
    : `no param ${Exclude<keyof S, NamesOf<ParamsOf<H>>> & string} in the spec`
  : never;

export interface Served<E extends EndpointName> {
  handlers: HandlersOf<E>;
  checks?: { readonly [K in keyof HandlersOf<E>]?: (params: ParamsOf<HandlersOf<E>[K]>) => unknown };
}

/** Handlers of `endpoint`, as they are, once the compiler has checked them against its interface (BoundHandlers). */
const bound = <E extends EndpointName, R extends BoundHandlers<E, R>>(_endpoint: E, handlers: R): R => handlers;

/** Each endpoint's handlers on the mock's state; an index and a proposervm answer for the `scope` they serve. */
export function mockHandlers(state: MockState, scope: string | undefined): { [E in EndpointName]: () => Served<E> } {
  const { world, admin, keystore, health, engine, dev } = state;
  const reads = <R>(handlers: R) => ({ handlers, checks: handlers });
  return {
    'p-chain': () => {
      const own = {
        ...pChainReads(world, TX_TYPES),
        getAllValidatorsAt: (p: Params<'height'>) => allValidatorsAt(world, p),
      };
      return { handlers: bound('p-chain', { ...own, issueTx: issueTx(engine, 'P') }), checks: own };
    },
    'x-chain': () => {
      const own = xChainReads(world, TX_TYPES);
      return { handlers: bound('x-chain', { ...own, issueTx: issueTx(engine, 'X') }), checks: own };
    },
    'x-wallet': () => ({ handlers: bound('x-wallet', { issueTx: issueTx(engine, 'X') }) }),
    'avm-static': () => reads(bound('avm-static', staticReads())),
    indexer: () => reads(bound('indexer', indexReads(world, scope as IndexName))),
    proposervm: () => reads(bound('proposervm', proposervmReads(world, scope === 'C' ? 'C' : 'P'))),
    info: () => {
      const own = {
        ...infoReads(world),
        ...nodeReads(world, () => state.version().version),
        getNodeVersion: () => state.version(),
      };
      // Only an absent (or null) param passes the node's decoder and reaches the handler's refusal; a wrong type
      // does not.
      const blockchainID = ({ alias = '' }: { alias?: string | null }) => {
        const chainID = admin.lookup(alias ?? '');
        if (!chainID) throw new Error(`there is no ID with alias: ${alias ?? ''}`);
        return { blockchainID: chainID };
      };
      const isBootstrapped = ({ chain = '' }: { chain?: string | null }) => {
        if (!chain) throw new Error("argument 'chain' not given");
        if (!admin.lookup(chain)) throw new Error(`there is no chain with alias/ID '${chain}'`);
        return { isBootstrapped: true };
      };
      return {
        handlers: bound('info', { ...own, getBlockchainID: blockchainID, isBootstrapped }),
        checks: {
          ...own,
          getBlockchainID: (p) => p.alias ?? blockchainID({}),
          isBootstrapped: (p) => p.chain ?? isBootstrapped({}),
        },
      };
    },
    keystore: () => ({
      handlers: bound('keystore', delegate(keystore, handlerNames('keystore'))),
      checks: {
        createUser: (p) => keystore.checkCreate(p),
        deleteUser: (p) => keystore.checkDelete(p),
        exportUser: (p) => keystore.exportUser(p),
        importUser: (p) => keystore.checkImport(p),
      },
    }),
    admin: () => {
      const alias = (p: Params<'alias'>) => checkAlias(String(p.alias ?? ''));
      return {
        handlers: bound('admin', {
          ...delegate(admin, ['alias', 'aliasChain', 'getChainAliases', 'getLoggerLevel', 'setLoggerLevel']),
          ...delegate(admin, ['startCPUProfiler', 'stopCPUProfiler', 'loadVMs']),
          getConfig: () => nodeConfig(world, state.routes),
          dbGet,
          // The node writes the goroutines' stacks, or the profile, to a file and answers nothing more.
          stacktrace: () => ({}),
          lockProfile: () => ({}),
          memoryProfile: () => ({}),
        }),
        checks: { alias, aliasChain: alias, dbGet },
      };
    },
    health: () => {
      // A check's `message` is any JSON (a list, a string: the spec's schema is `{}`), which the generated type
      // narrows to an object: the reports are the node's, so they are handed over as its type.
      const report = (kind: HealthKind, { tags }: { tags?: string[] | null }) =>
        health.report(kind, tags ?? []) as unknown as HealthHealthResult;
      return {
        handlers: {
          health: (p) => report('health', p),
          readiness: (p) => report('readiness', p),
          liveness: (p) => report('liveness', p),
        },
      };
    },
    // Each control of the spec is DevControls' method of its name, which checks every value of its params itself.
    dev: () => ({ handlers: bound('dev', delegate(dev, handlerNames('dev'))) }),
    'c-avax': () => ({ handlers: atomicHandlers(state) }),
  };
}

/** A handler or a check as node.ts wraps it: whatever its method's params and answer (bound above). */
export type Answer = (params: Record<string, unknown>) => unknown;

/** A method's handler, and the check that words the node's refusal of its params; either may be absent. */
export interface MethodAnswers {
  handler?: Answer;
  check?: Answer;
}

/**
 * An endpoint's handlers and checks by wire name (`avax.getUTXOs`), for node.ts to wrap one by one (releases,
 * logging): their types were checked against the endpoint's interface above, and a wrapped handler answers whatever
 * its handler does.
 */
export function handlersByWireName(
  state: MockState,
  name: EndpointName,
  scope: string | undefined,
): Map<string, MethodAnswers> {
  const { handlers, checks = {} } = mockHandlers(state, scope)[name]() as unknown as Record<
    'handlers' | 'checks',
    Partial<Record<string, Answer>>
  >;
  return new Map(
    ENDPOINTS[name].methods.map((method) => [
      method.name,
      { handler: handlers[method.handler], check: checks[method.handler] },
    ]),
  );
}

/** The handler names of an endpoint's methods, as its spec lists them. */
const handlerNames = <E extends EndpointName>(name: E) =>
  ENDPOINTS[name].methods.map((method) => method.handler) as (keyof HandlersOf<E>)[];

/** The methods of `target` named, bound to it: the handlers of an endpoint whose state has a method per call. */
function delegate<T extends object, K extends keyof T>(target: T, names: readonly K[]): Pick<T, K> {
  return Object.fromEntries(
    names.map((name) => [name, (target[name] as (...args: unknown[]) => unknown).bind(target)]),
  ) as Pick<T, K>;
}

/**
 * `/ext/bc/C/avax`'s handlers: AtomicApi's methods, called as they are once it is loaded; the first call loads it
 * (../lazy-cchain.ts).
 */
function atomicHandlers(state: MockState) {
  const lazily = <K extends keyof AtomicApi & keyof HandlersOf<'c-avax'>>(name: K) => {
    type Reply = ReturnType<AtomicApi[K]>;
    // AtomicApi's own params: the names it reads (none for `version`).
    type Taken = Parameters<AtomicApi[K]> extends [infer P] ? P : Params<never>;
    const call = (atomic: AtomicApi, params: Taken) => (atomic[name] as (p: Taken) => Reply).call(atomic, params);
    return (params: Taken): Reply | Promise<Awaited<Reply>> => {
      const loaded = state.cChain.atomic;
      return loaded
        ? call(loaded, params)
        : state.cChain.loadAtomic().then<Awaited<Reply>>((atomic) => call(atomic, params) as Awaited<Reply>);
    };
  };
  return bound('c-avax', {
    getUTXOs: lazily('getUTXOs'),
    issueTx: lazily('issueTx'),
    getAtomicTxStatus: lazily('getAtomicTxStatus'),
    getAtomicTx: lazily('getAtomicTx'),
    version: lazily('version'),
  });
}

/**
 * The generated server's endpoint for `name` on its handlers as node.ts wraps them (releases, logging): the same keys,
 * each answer the typed handler's, or the refusal of a method the mock does not simulate.
 */
export function createMockEndpoint(
  name: EndpointName,
  handlers: Record<string, Answer>,
  options: EndpointOptions,
): Endpoint {
  // Which factory `name` picks is known at run time only: TypeScript sees the union of all twelve.
  const create = ENDPOINTS[name].create as (handlers: object, options: EndpointOptions) => Endpoint;
  return create(handlers, options);
}
