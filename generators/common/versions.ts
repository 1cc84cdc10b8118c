/** AvalancheGo release tags (`v1.14.2`), which both the loader and the model compare. */
/**
 * An AvalancheGo release tag, with a pre-release suffix where the node tagged one: `v1.15.0-fuji` is the Fuji
 * release AvalancheGo tags ahead of `v1.15.0` (Helicon's first release was only that tag).
 */
export const VERSION_PATTERN = /^v\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/;

/** The keys of an `x-node-versions` range. */
export const VERSION_KEYS = ['since', 'deprecatedSince', 'lastVersion', 'removedIn'] as const;

// The order the generated clients ship (a pre-release, `v1.15.0-fuji`, comes before its release), so the toolkit and
// the clients it writes agree on which release serves what.
export { compare as compareVersions } from '../../runtime/client/errors.ts';
