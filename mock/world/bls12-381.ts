/**
 * @noble/curves' BLS12-381, required on first use rather than imported: loading it computes the curve's constants
 * (tens of ms), and a mock on `local` never needs it until a transaction carries a BLS key or a warp message. The
 * mock's package build puts it in a file of its own beside the bundle (mock/package/build.ts), as it does avalanchejs.
 */
import { createRequire } from 'node:module';

type Curves = typeof import('@noble/curves/bls12-381');

let loaded: Curves['bls12_381'] | undefined;

export function bls12381(): Curves['bls12_381'] {
  loaded ??= (createRequire(import.meta.url)('@noble/curves/bls12-381') as Curves).bls12_381;
  return loaded;
}
