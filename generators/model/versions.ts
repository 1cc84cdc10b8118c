/** Which node releases serve a method, from its `x-node-versions`: one answer for the mock, conformance and docs. */
import type { MethodModel, SpecModel } from './types.ts';

/** An AvalancheGo release tag. */
export const VERSION_PATTERN = /^v\d+\.\d+\.\d+$/;

export function compareVersions(a: string, b: string): number {
  const pa = a.slice(1).split('.').map(Number);
  const pb = b.slice(1).split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  return 0;
}

/** The newest release the spec describes: endpoints carry it as `info.version` (`v0.0.0` when none is a release). */
export function newestSpecVersion(model: SpecModel): string {
  const versions = model.endpoints.map((e) => `v${e.version}`).filter((v) => VERSION_PATTERN.test(v));
  return versions.sort(compareVersions).at(-1) ?? 'v0.0.0';
}

/** Undefined when release `version` (e.g. `v1.12.1`) serves the method, else why it does not. */
export function notServedReason(method: MethodModel, version: string): string | undefined {
  const { since, lastVersion, removedIn } = method.versions;
  if (since && compareVersions(version, since) < 0) return `not served by ${version} (served since ${since})`;
  if (removedIn && compareVersions(version, removedIn) >= 0) return `not served by ${version} (removed in ${removedIn})`;
  if (lastVersion && compareVersions(version, lastVersion) > 0) return `not served by ${version} (last served by ${lastVersion})`;
  return undefined;
}

/** Whether `version` serves the method; without a version, every method is served. */
export function servedBy(method: MethodModel, version: string | undefined): boolean {
  return version === undefined || notServedReason(method, version) === undefined;
}

/**
 * The method's life in node releases, as one sentence for every medium (client comments, server comments, docs):
 * "Served since AvalancheGo v1.2.0; deprecated since v1.7.0; last served by v1.9.0; removed in v1.9.1." With
 * `deprecation: false` the deprecation is left to a `@deprecated` tag. Empty when the spec records nothing.
 */
export function lifecycle(method: MethodModel, { deprecation = false } = {}): string {
  const { since, deprecatedSince, lastVersion, removedIn } = method.versions;
  const parts = [
    since ? `served since AvalancheGo ${since}` : '',
    deprecation && method.deprecated ? (deprecatedSince ? `deprecated since ${deprecatedSince}` : 'deprecated') : '',
    lastVersion ? `last served by ${lastVersion}` : '',
    removedIn ? `removed in ${removedIn}` : '',
  ].filter(Boolean);
  if (parts.length === 0) return '';
  const sentence = parts.join('; ');
  return `${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`;
}
