/** AvalancheGo release tags (`v1.14.2`), which both the loader and the model compare. */
/**
 * An AvalancheGo release tag, with a pre-release suffix where the node tagged one: `v1.15.0-fuji` is the Fuji
 * release AvalancheGo tags ahead of `v1.15.0` (Helicon's first release was only that tag).
 */
export const VERSION_PATTERN = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/;

/** Semantic-versioning order: a pre-release (`v1.15.0-fuji`) comes before its release (`v1.15.0`). */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = a.slice(1).split(/-(.*)/, 2);
  const [coreB = '', preB] = b.slice(1).split(/-(.*)/, 2);
  const pa = coreA.split('.').map(Number);
  const pb = coreB.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}
