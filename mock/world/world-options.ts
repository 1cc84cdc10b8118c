/**
 * The ranges of a world's options, one rule for each way they arrive: the CLI's flags, `startMockNode`'s options and
 * a `--state` file. A hostile file or call gets the flag's refusal, never a world that takes hours to build.
 */
import type { WorldOptions } from './genesis.ts';
import { NETWORK_NAMES } from './networks.ts';

/** The most funded keys, and UTXOs per key and chain, a world is built with (`--accounts`, `--utxos-per-account`). */
const MAX_COUNT = 1_000_000;

const COUNTS = { accounts: 0, utxosPerAccount: 1 } as const;

/**
 * `options` as a WorldOptions, or an Error naming the first option out of range; `name` words an option's name as its
 * source does (`--utxos-per-account`, `utxosPerAccount`, `state.json: utxosPerAccount`).
 */
export function checkWorldOptions(options: Record<string, unknown>, name: (key: string) => string): WorldOptions {
  const { network, seed } = options;
  if (network !== undefined && !NETWORK_NAMES.includes(network as never))
    throw new Error(`${name('network')} must be one of ${NETWORK_NAMES.join(', ')}, not ${JSON.stringify(network)}`);
  if (seed !== undefined && typeof seed !== 'string') throw new Error(`${name('seed')} must be a string`);
  for (const [key, min] of Object.entries(COUNTS)) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= min && (value as number) <= MAX_COUNT))
      throw new Error(`${name(key)} must be an integer from ${min} to ${MAX_COUNT}, not ${JSON.stringify(value)}`);
  }
  return options as WorldOptions;
}
