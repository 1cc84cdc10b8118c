/**
 * Hardhat's EDR (@nomicfoundation/edr), required once per process: the C-Chain's engine (../cchain/evm.ts) and the
 * public keys of the C-Chain's funded accounts (../world/signers.ts), so that a first C-Chain call loads one native
 * library, not two.
 */
import { createRequire } from 'node:module';

type Edr = typeof import('@nomicfoundation/edr');

let loaded: Edr | undefined;

/**
 * EDR allocates with mimalloc, which by default commits its 1 GiB arenas eagerly where the kernel overcommits: the
 * node's RSS grew by ~10 MB more than the engine uses (bench/README.md). mimalloc reads its options from the
 * environment once, as the library loads; a value the user set is kept, and the environment is left as it was.
 */
export function edr(): Edr {
  if (loaded) return loaded;
  const option = 'MIMALLOC_ARENA_EAGER_COMMIT';
  const set = process.env[option] === undefined;
  if (set) process.env[option] = '0';
  try {
    loaded = createRequire(import.meta.url)('@nomicfoundation/edr') as Edr;
    return loaded;
  } finally {
    if (set) delete process.env[option];
  }
}
