/**
 * The addresses of the funded keys of a seed, known without deriving them: none when the mock runs from source. The
 * mock's package build (mock/package/build.ts) swaps this module for one holding the addresses it derived for the
 * default seed, since deriving a key's public key (a secp256k1 multiplication) was a tenth of a packaged start-up.
 * Any other seed, or more accounts than the build derived, is derived at start-up as before.
 */
export function knownAddresses(_seed: string): readonly string[] | undefined {
  return undefined;
}
