/**
 * What the conformance runner and the proxy need to know about the spec beyond the model: which endpoint serves a
 * method, whether calling it is safe, and whether a given node release serves it.
 */
import { resolve } from 'node:path';
import { loadModel } from '../generators/pipeline.ts';
import { compareVersions } from '../generators/load/rules.ts';
import type { EndpointModel, MethodModel, SpecModel } from '../generators/model/types.ts';

export const TOOLKIT_SPEC = resolve(import.meta.dirname, '..', 'openrpc');

export interface SpecMethod {
  endpoint: EndpointModel;
  method: MethodModel;
}

export function loadSpecModel(spec: string | string[] = TOOLKIT_SPEC): SpecModel {
  return loadModel(spec);
}

/** Method wire names are unique across the spec (the loader enforces it), so a name alone finds its endpoint. */
export function indexMethods(model: SpecModel): Map<string, SpecMethod> {
  const index = new Map<string, SpecMethod>();
  for (const endpoint of model.endpoints) for (const method of endpoint.methods) index.set(method.name, { endpoint, method });
  return index;
}

/** The endpoint's URL below the node's base URL, with path variables (e.g. `blockchainID`) filled in. */
export function endpointPath(endpoint: EndpointModel, variables: Record<string, string> = {}): string {
  const path = endpoint.urlTemplate.replace(/^\{baseUrl\}/, '').replace(/^[a-z]+:\/\/[^/]+/, '');
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => variables[name] ?? endpoint.pathVariables.find((v) => v.name === name)?.default ?? '');
}

/**
 * Verbs that only read. The spec has no side-effect marker yet; until it gains one (`x-side-effects`, proposed in the
 * issue report), a method is a safe read only when its name says so, and any verb not listed here counts as a write.
 * `export` (keystore.exportUser) and `build` (avm.buildGenesis) compute an answer without changing the node.
 */
const READ_VERBS = /^(get|list|sample|validates|validatedBy|export|build)([A-Z]|$)/;

export type SideEffects = 'none' | 'node' | 'chain';

export function sideEffects({ endpoint, method }: SpecMethod): SideEffects {
  const declared = (endpoint.document.methods as Array<Record<string, unknown>> | undefined)?.[method.index]?.['x-side-effects'];
  if (declared === 'none' || declared === 'node' || declared === 'chain') return declared;
  if (READ_VERBS.test(method.shortName)) return 'none';
  return /issueTx$/.test(method.shortName) ? 'chain' : 'node';
}

export function isSafeRead(entry: SpecMethod): boolean {
  return sideEffects(entry) === 'none';
}

export const VERSION_PATTERN = /^v\d+\.\d+\.\d+$/;

/** The newest release the spec describes: endpoints carry it as `info.version`. */
export function newestSpecVersion(model: SpecModel): string {
  const versions = model.endpoints.map((e) => `v${e.version}`).filter((v) => VERSION_PATTERN.test(v));
  return versions.sort(compareVersions).at(-1) ?? 'v0.0.0';
}

/** Undefined when `version` serves the method, else why not (for a SKIP reason). */
export function notServedReason(method: MethodModel, version: string): string | undefined {
  const { since, lastVersion, removedIn } = method.versions;
  if (since && compareVersions(version, since) < 0) return `not served by ${version} (served since ${since})`;
  if (removedIn && compareVersions(version, removedIn) >= 0) return `not served by ${version} (removed in ${removedIn})`;
  if (lastVersion && compareVersions(version, lastVersion) > 0) return `not served by ${version} (last served by ${lastVersion})`;
  return undefined;
}

/** `avalanchego/1.14.2` (what info.getNodeVersion answers) or `1.14.2` or `v1.14.2` -> `v1.14.2`. */
export function parseNodeVersion(text: string): string | undefined {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? `v${match[1]}.${match[2]}.${match[3]}` : undefined;
}

/** Which chain's IDs and addresses a service works with (address prefixes are `P-` and `X-`). */
export function chainOf(method: MethodModel): 'P' | 'X' | undefined {
  if (method.service === 'platform') return 'P';
  if (method.service === 'avm' || method.service === 'wallet') return 'X';
  return undefined;
}
