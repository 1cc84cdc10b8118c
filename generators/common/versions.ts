/** AvalancheGo release tags (`v1.14.2`), which both the loader and the model compare. */
/** An AvalancheGo release tag. */
export const VERSION_PATTERN = /^v\d+\.\d+\.\d+$/;

export function compareVersions(a: string, b: string): number {
  const pa = a.slice(1).split('.').map(Number);
  const pb = b.slice(1).split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  return 0;
}
