/**
 * `npm run mock -- --port 9650 --host 127.0.0.1 [--network local|fuji|mainnet] [--accounts N] [--seed S]
 * [--api-admin-enabled=false] [--api-keystore-enabled=false] [--node-version v1.12.1]`: a mock AvalancheGo node
 * simulating one network. Prints the URL it listens on and the funded keys (like anvil), then one line per call
 * (method and outcome; never params, so never a password). A function rather than a script, so that ./cli.ts and
 * the packaged `avalanche-mock` (a bundle that cannot have a top-level await) both run it.
 */
import { exitWithUsage, optionalNodeVersion, parseCli } from '../conform/cli-common.ts';
import { collectWhenIdle } from '../conform/idle-gc.ts';
import { bech32Encode } from '../generators/formats.ts';
import { newestSpecVersion } from '../generators/model/versions.ts';
import type { Mining } from './engine/engine.ts';
import { loadWorld, saveWorld } from './engine/state-file.ts';
import { cChainIDOf } from './cchain/genesis.ts';
import { startMockNode } from './node.ts';
import { mockModel } from './spec.ts';
import { NETWORK_NAMES, type NetworkName } from './world/networks.ts';

const USAGE = `Usage: npm run mock -- [options]
  --port <n>                      port to listen on (default 9650; 0 picks a free one)
  --network <name>                local, fuji or mainnet: that network's IDs, HRP and genesis (default local)
  --accounts <n>                  funded keys to create, 2,500 AVAX each on X and on P (default 10)
  --seed <text>                   seed of the funded keys and of Fuji's and Mainnet's synthetic stakers
  --utxos-per-account <n>         UTXOs each account's funds are split into, per chain (default 1)
  --block-time <ms>               build a block from the pooled transactions every <ms> (default: automine, one
                                  block per transaction at once)
  --no-mining                     build blocks only when asked (dev.mine)
  --no-dev                        do not serve the development controls /ext/dev (snapshot, revert, time, mine, fund)
  --state <file>                  load the world saved in <file> (if it exists) and save it there on exit
                                  (not once the C-Chain's EVM state changed: it cannot be saved)
  --host <address>                address to listen on (default 127.0.0.1)
  --api-admin-enabled=<bool>      serve /ext/admin (default true)
  --api-keystore-enabled=<bool>   serve /ext/keystore where the node version has it (default true)
  --node-version <vX.Y.Z|all>     answer as that AvalancheGo release did: its methods, params, fields and shapes
                                  (default: the newest release the spec describes; all: every release's methods)
  --http-allowed-hosts <list>     host names accepted in the Host header, comma-separated (default localhost; * for any)
  --http-max-body-bytes <n>       largest request body (default 16777216); larger ones get 413
  --quiet                         do not print a line per call
  --help, -h                      this text`;

function fail(message: string): never {
  return exitWithUsage('mock', USAGE, message);
}

function flag(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === '') return true;
  if (value === 'false') return false;
  return fail(`--${name} takes true or false, not "${value}"`);
}

/** The node's boolean flags (Go's pflag) also stand alone (`--api-admin-enabled`) or take a separate value. */
function normalizeFlags(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--api-admin-enabled' || arg === '--api-keystore-enabled') {
      const next = argv[i + 1];
      if (next === 'true' || next === 'false') {
        out.push(`${arg}=${next}`);
        i++;
      } else out.push(`${arg}=true`);
    } else out.push(arg);
  }
  return out;
}

/** Parses the flags, starts the node and prints where it listens; exits on bad flags. */
export async function runCli(argv: string[]): Promise<void> {
  const values = parseCli(
    'mock',
    USAGE,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      network: { type: 'string' },
      accounts: { type: 'string' },
      seed: { type: 'string' },
      'utxos-per-account': { type: 'string' },
      'block-time': { type: 'string' },
      'no-mining': { type: 'boolean', default: false },
      'no-dev': { type: 'boolean', default: false },
      state: { type: 'string' },
      'api-admin-enabled': { type: 'string' },
      'api-keystore-enabled': { type: 'string' },
      'node-version': { type: 'string' },
      'http-allowed-hosts': { type: 'string' },
      'http-max-body-bytes': { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
    normalizeFlags(argv),
  );
  const port = Number(values.port ?? 9650);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not "${values.port}"`);
  const nodeVersion = values['node-version'] === 'all' ? 'all' : optionalNodeVersion(values['node-version'], fail);
  const maxBodyBytes = values['http-max-body-bytes'] === undefined ? undefined : Number(values['http-max-body-bytes']);
  if (maxBodyBytes !== undefined && !(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0))
    fail('--http-max-body-bytes must be a positive integer');
  const network = (values.network ?? 'local') as NetworkName;
  if (!NETWORK_NAMES.includes(network))
    fail(`--network must be one of ${NETWORK_NAMES.join(', ')}, not "${values.network}"`);
  const count = (name: 'accounts' | 'utxos-per-account', fallback: number, min: number): number => {
    const value = values[name] === undefined ? fallback : Number(values[name]);
    if (!Number.isInteger(value) || value < min || value > 1_000_000)
      fail(`--${name} must be an integer from ${min} to 1000000`);
    return value;
  };
  const accounts = count('accounts', 10, 0);
  const utxosPerAccount = count('utxos-per-account', 1, 1);
  const blockTime = values['block-time'] === undefined ? undefined : Number(values['block-time']);
  if (blockTime !== undefined && !(Number.isInteger(blockTime) && blockTime > 0))
    fail('--block-time must be a positive number of milliseconds');
  if (blockTime !== undefined && values['no-mining']) fail('--block-time and --no-mining exclude each other');
  const mining: Mining = blockTime
    ? { mode: 'interval', blockTimeMs: blockTime }
    : values['no-mining']
      ? { mode: 'manual' }
      : { mode: 'auto' };
  const adminEnabled = flag(values['api-admin-enabled'], 'api-admin-enabled');
  const keystoreEnabled = flag(values['api-keystore-enabled'], 'api-keystore-enabled');

  try {
    const worldOptions = {
      network,
      accounts,
      utxosPerAccount,
      ...(values.seed === undefined ? {} : { seed: values.seed }),
    };
    const loaded = values.state ? loadWorld(values.state) : undefined;
    if (loaded && loaded.options.network !== network && values.network !== undefined)
      fail(`--state ${values.state} holds a ${loaded.options.network} world, not ${network}`);
    const node = await startMockNode({
      port,
      host: values.host ?? '127.0.0.1',
      mining,
      ...(values['no-dev'] ? { devControls: false } : {}),
      world: loaded?.world ?? worldOptions,
      ...(adminEnabled === undefined ? {} : { adminEnabled }),
      ...(keystoreEnabled === undefined ? {} : { keystoreEnabled }),
      ...(nodeVersion ? { nodeVersion } : {}),
      ...(values['http-allowed-hosts']
        ? { allowedHosts: values['http-allowed-hosts'].split(',').map((h) => h.trim()) }
        : {}),
      ...(maxBodyBytes ? { maxBodyBytes } : {}),
      ...(values.quiet ? {} : { log: (line: string) => console.log(`${new Date().toISOString()} ${line}`) }),
    });
    // Memory taken under load goes back once the node is idle (conform/idle-gc.ts).
    collectWhenIdle(node.server);
    const release = nodeVersion === 'all' ? 'serving every release' : (nodeVersion ?? newestSpecVersion(mockModel()));
    console.log(`mock AvalancheGo node ${release} listening on ${node.url} (${node.nodeID})`);
    const { world } = node;
    console.log(
      `network: ${world.network.name} (network ID ${world.network.networkID}, HRP ${world.network.hrp}); ` +
        `X-Chain ${world.chainIDs.X}, AVAX ${world.network.avaxAssetID}`,
    );
    console.log(
      `blocks: ${
        mining.mode === 'auto'
          ? 'automine (one per transaction)'
          : mining.mode === 'interval'
            ? `every ${mining.blockTimeMs} ms`
            : 'only when mined (dev.mine)'
      }`,
    );
    console.log(`endpoints: ${[...new Set(node.routes.values())].join(', ')}; e.g. ${node.url}/ext/bc/X`);
    console.log(`C-Chain: ${node.url}/ext/bc/C/rpc (chain ID ${cChainIDOf(world)}, EVM started on its first call)`);
    if (world.accounts.length > 0) {
      // Test keys of a simulated network, printed on purpose (as anvil does): never use them anywhere else.
      const shown = world.accounts.slice(0, 20);
      console.log(`\nFunded accounts (${world.accounts.length}; 2500 AVAX each on X, P and C):`);
      shown.forEach((account, i) =>
        console.log(
          `(${i}) ${bech32Encode(world.network.hrp, Buffer.from(account.address, 'hex'))} ${account.privateKey}`,
        ),
      );
      if (world.accounts.length > shown.length) console.log(`... and ${world.accounts.length - shown.length} more`);
    }
    if (world.network.name === 'local')
      console.log(
        'The ewoq key PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN holds the local genesis funds.',
      );
    if (loaded) console.log(`state: loaded from ${values.state}`);
    const stop = () => {
      // The EVM engine has no state dump: a world whose C-Chain moved would come back with its shared memory and
      // atomic txs but not the balances they changed, so it is not saved at all.
      if (values.state && node.state.cchain.changed)
        console.error(
          `state: not saved to ${values.state}: the C-Chain's EVM state cannot be saved, and the X- and P-Chain ` +
            'without it would not agree with it (the file, if any, is left as it was)',
        );
      else if (values.state) saveWorld(node.world, loaded?.options ?? worldOptions, values.state);
      void node.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    console.error(`cannot start the mock node: ${(error as Error).message}`);
    process.exit(1);
  }
}
