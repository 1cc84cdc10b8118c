/**
 * coreth's version (plugin/evm/version.go `Version`, what `avax.version` answers) in each AvalancheGo release, from the
 * coreth module each release's go.mod requires. The string lagged the module's tag in some releases (v1.11.0 and
 * v1.11.1 require coreth v0.13.0-rc.0, whose version.go still says v0.12.11), and the table keeps what the code says.
 * avax.version was last served by v1.13.5; `info.getNodeVersion` reports the same version as the evm's until v1.14.2.
 */
import { compareVersions } from '../../generators/common/versions.ts';

const SINCE: ReadonlyArray<readonly [string, string]> = [
  ['v1.9.0', 'v0.11.0'],
  ['v1.9.1', 'v0.11.1'],
  ['v1.9.2', 'v0.11.2'],
  ['v1.9.3', 'v0.11.3'],
  ['v1.9.4', 'v0.11.4'],
  ['v1.9.5', 'v0.11.5'],
  ['v1.9.9', 'v0.11.7'],
  ['v1.9.10', 'v0.11.8'],
  ['v1.9.12', 'v0.11.9'],
  ['v1.10.0', 'v0.12.0'],
  ['v1.10.2', 'v0.12.1'],
  ['v1.10.3', 'v0.12.3'],
  ['v1.10.4', 'v0.12.4'],
  ['v1.10.7', 'v0.12.5'],
  ['v1.10.13', 'v0.12.6'],
  ['v1.10.15', 'v0.12.7'],
  ['v1.10.16', 'v0.12.8'],
  ['v1.10.17', 'v0.12.9'],
  ['v1.10.19', 'v0.12.11'],
  ['v1.11.2', 'v0.13.0'],
  ['v1.11.3', 'v0.13.2'],
  ['v1.11.5', 'v0.13.3'],
  ['v1.11.6', 'v0.13.4'],
  ['v1.11.9', 'v0.13.6'],
  ['v1.11.10', 'v0.13.7'],
  ['v1.11.12', 'v0.13.8'],
  ['v1.11.13', 'v0.13.9'],
  ['v1.12.2', 'v0.14.1'],
  ['v1.13.1', 'v0.15.1'],
  ['v1.13.5', 'v0.15.4'],
];

/** coreth's version in AvalancheGo release `nodeVersion` (the last one that had avax.version when absent). */
export function corethVersion(nodeVersion: string | undefined): string {
  if (!nodeVersion) return SINCE.at(-1)![1];
  let version = SINCE[0]![1];
  for (const [release, coreth] of SINCE) if (compareVersions(nodeVersion, release) >= 0) version = coreth;
  return version;
}
