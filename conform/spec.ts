/**
 * What the conformance runner and the proxy need to know about the spec beyond the model: where a method's endpoint
 * is, whether calling it is safe, which release a node reports and which wire rules its calls follow.
 */
import { resolve } from 'node:path';
import { loadModel } from '../generators/pipeline.ts';
import type { EndpointModel, MethodModel, SpecMethod, SpecModel } from '../generators/model/types.ts';

export const TOOLKIT_SPEC = resolve(import.meta.dirname, '..', 'openrpc');

export function loadSpecModel(spec: string | string[] = TOOLKIT_SPEC): SpecModel {
  return loadModel(spec);
}

/** The endpoint's URL below the node's base URL, with path variables (e.g. `blockchainID`) filled in. */
export function endpointPath(endpoint: EndpointModel, variables: Record<string, string> = {}): string {
  return endpoint.pathTemplate.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => variables[name] ?? endpoint.pathVariables.find((v) => v.name === name)?.default ?? '',
  );
}

/** A method the spec does not mark as side-effect free (`x-side-effects: none`) counts as a write. */
export function isSafeRead({ method }: SpecMethod): boolean {
  return method.sideEffects === 'none';
}

/** `avalanchego/1.14.2` (what info.getNodeVersion answers) or `1.14.2` or `v1.14.2` -> `v1.14.2`. */
export function parseNodeVersion(text: string): string | undefined {
  const match = /(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.]+)?/.exec(text);
  return match ? `v${match[1]}.${match[2]}.${match[3]}${match[4] ?? ''}` : undefined;
}

/** Which chain's IDs and addresses a service works with (address prefixes are `P-` and `X-`). */
export function chainOf(method: MethodModel): 'P' | 'X' | undefined {
  if (method.service === 'platform') return 'P';
  if (method.service === 'avm' || method.service === 'wallet') return 'X';
  return undefined;
}

/**
 * How a method's calls travel: `node`, AvalancheGo's RPC layer, for a spec that opts into the avalanche profile;
 * `jsonrpc2`, the JSON-RPC 2.0 specification as written, for any other (a foreign document's only dialect).
 */
export function wireProfile({ endpoint }: Pick<SpecMethod, 'endpoint'>): 'node' | 'jsonrpc2' {
  return endpoint.profile === 'avalanche' ? 'node' : 'jsonrpc2';
}
