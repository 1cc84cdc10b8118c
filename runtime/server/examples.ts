/**
 * The classic OpenRPC mock: a handler set that answers each method of an endpoint from the examples of its document.
 * A call whose params equal an example's (as JSON values, members in any order) gets that example's result, exactly;
 * any other call is refused with -32000 naming the method (which exists), because inventing an answer would
 * tell the caller something no node said. Docs demos and round-trip tests use it; a simulated node answers otherwise.
 */
import type { OpenrpcDocument } from './endpoint.ts';
import { type MethodSpec, type RawJson, RpcError, rawJson } from './rpc.ts';

interface Example {
  params: Record<string, unknown>;
  result: RawJson;
}

/** Equal as JSON values: the same members (in any order) and items, with equal numbers, strings and literals. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}

type Node = Record<string, unknown>;

/** Follows a `#/components/...` reference of the bundled document (examples and params may be references). */
function deref(document: OpenrpcDocument, node: unknown): Node {
  const ref = (node as Node | null)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return (node ?? {}) as Node;
  let found: unknown = document;
  for (const token of ref.slice(2).split('/'))
    found = (found as Node | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  return (found ?? {}) as Node;
}

/**
 * The examples of every method of `document`, by method name: params by name, the result written once. A value whose
 * name is not a param's (by-position examples name them freely) belongs to the param at its position.
 */
function examplesOf(document: OpenrpcDocument): Map<string, Example[]> {
  const out = new Map<string, Example[]>();
  for (const method of (document.methods ?? []) as Node[]) {
    const declared = ((method.params ?? []) as unknown[]).map((param) => String(deref(document, param).name));
    const examples = ((method.examples ?? []) as unknown[]).map((entry) => deref(document, entry));
    out.set(
      String(method.name),
      examples.map((example) => ({
        params: Object.fromEntries(
          ((example.params ?? []) as unknown[]).map((entry, i) => {
            const param = deref(document, entry);
            const name = String(param.name);
            return [declared.includes(name) ? name : (declared[i] ?? name), param.value];
          }),
        ),
        result: rawJson(deref(document, example.result).value ?? null),
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
