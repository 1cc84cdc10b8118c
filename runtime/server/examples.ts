/**
 * The classic OpenRPC mock: a handler set that answers each method of an endpoint from the examples of its document.
 * A call whose params equal an example's (as JSON values, members in any order) gets that example's result, exactly;
 * any other call is refused with -32000 naming the method (which exists), because inventing an answer would
 * tell the caller something no node said. Docs demos and round-trip tests use it; a simulated node answers otherwise.
 */
import type { OpenrpcDocument } from './endpoint.js';
import { type MethodSpec, type RawJson, RpcError, rawJson } from './rpc.js';

interface Example {
  params: Record<string, unknown>;
  result: RawJson;
}

/** Equal as JSON values: the same members (in any order) and items, with equal numbers, strings and literals. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}

/** The examples of every method of `document`, by method name: params by name, the result written once. */
function examplesOf(document: OpenrpcDocument): Map<string, Example[]> {
  const out = new Map<string, Example[]>();
  const methods = (document.methods ?? []) as Array<{ name: string; examples?: Array<{ params?: Array<{ name: string; value: unknown }>; result?: { value: unknown } }> }>;
  for (const method of methods) {
    out.set(
      method.name,
      (method.examples ?? []).map((example) => ({
        params: Object.fromEntries((example.params ?? []).map((p) => [p.name, p.value])),
        result: rawJson(example.result?.value ?? null),
      })),
    );
  }
  return out;
}

/**
 * Handlers for `createXxxEndpoint(exampleHandlers(xxxDocument, xxxMethods))`: each answers its method's examples.
 * Params left out of a call match an example that leaves them out too; an empty call matches an example without params.
 */
export function exampleHandlers<Handlers>(document: OpenrpcDocument, methods: readonly MethodSpec[]): Handlers {
  const examples = examplesOf(document);
  const handlers: Record<string, (params: Record<string, unknown>) => RawJson> = {};
  for (const spec of methods) {
    const own = examples.get(spec.name) ?? [];
    handlers[spec.handler] = (params) => {
      const found = own.find((example) => sameJson(params ?? {}, example.params));
      if (!found) throw new RpcError(-32000, `${spec.name}: no example of the spec has these params`);
      return found.result;
    };
  }
  return handlers as Handlers;
}
