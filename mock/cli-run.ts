/**
 * `npm run mock -- --port 9650 --host 127.0.0.1 [--network local|fuji|mainnet] [--accounts N] [--seed S]
 * [--api-admin-enabled=false] [--api-keystore-enabled=false] [--node-version v1.12.1]`: a mock AvalancheGo node
 * simulating one network. Prints the URL it listens on and the funded keys (like anvil), then one line per call
 * (method and outcome; never params, so never a password). A function rather than a script, so that ./cli.ts and
 * the packaged `avalanche-mock` (a bundle that cannot have a top-level await) both run it.
 */
import { exitWithUsage, parseCli } from '../conform/cli-common.ts';
import { newestSpecVersion } from '../generators/model/versions.ts';
import { fundedAccount } from './engine/dev.ts';
import { lineWriter } from './log-lines.ts';
import { cChainIDOf } from './cchain/genesis.ts';
import { START_UP_LOADS } from './lazy-cchain.ts';
import { mockModel } from './spec.ts';
import {
  type Resolved,
  type StartOptions,
  type StartedNode,
  resolveOptions,
  startWithOptions,
} from './start-options.ts';

const OPTIONS = `
  --port <n>                      port to listen on (default 9650; 0 picks a free one)
  --network <name>                local, fuji or mainnet: that network's IDs, HRP and genesis (default local)
  --accounts <n>                  funded keys to create, 2,500 AVAX each on X, P and C (default 10)
  --seed <text>                   seed of the funded keys and of Fuji's and Mainnet's synthetic stakers
  --utxos-per-account <n>         UTXOs each account's funds are split into, per chain (default 1)
  --block-time <ms>               build a block from the pooled transactions every <ms>, on X, P and C (default:
                                  automine, one block per transaction at once)
  --no-mining                     build blocks only when asked (dev.mine)
  --no-dev                        do not serve the development controls /ext/dev (snapshot, revert, time, mine, fund)
  --state <file>                  load the world saved in <file> (if it exists) and save it there on exit
  --fork-url <url>                start from a live node's state (its network, validators, subnets, fees; UTXOs
                                  as first used); every read goes to that URL only
  --fork-height <n>               the P-Chain height to fork at (default: the source's tip)
  --fork-cache-dir <dir>          where the source's answers are kept between runs
                                  (default ~/.cache/avalanche-mock/fork)
  --no-fork-cache                 keep no answers on disk
  --host <address>                address to listen on (default 127.0.0.1)
  --api-admin-enabled=<bool>      serve /ext/admin (default true)
  --api-keystore-enabled=<bool>   serve /ext/keystore where the node version has it (default true)
  --index-enabled=<bool>          serve the indexes /ext/index/{X,P,C}/... (default false, as on the node)
  --node-version <vX.Y.Z|all>     answer as that AvalancheGo release did: its methods, params, fields and shapes
                                  (default: the newest release the spec describes; all: every release's methods)
  --http-allowed-hosts <list>     host names accepted in the Host header, comma-separated (default localhost; * for any)
  --http-max-body-bytes <n>       largest request body (default 16777216); larger ones get 413
  --quiet                         do not print a line per call
  --help, -h                      this text`;

/** Each option's flag, for the refusals of mock/start-options.ts. */
const FLAGS: Record<keyof StartOptions, string> = {
  port: '--port',
  host: '--host',
  network: '--network',
  accounts: '--accounts',
  seed: '--seed',
  utxosPerAccount: '--utxos-per-account',
  blockTime: '--block-time',
  mining: '--no-mining',
  devControls: '--no-dev',
  state: '--state',
  fork: '--fork-url',
  adminEnabled: '--api-admin-enabled',
  keystoreEnabled: '--api-keystore-enabled',
  indexEnabled: '--index-enabled',
  nodeVersion: '--node-version',
  allowedHosts: '--http-allowed-hosts',
  maxBodyBytes: '--http-max-body-bytes',
  log: '--quiet',
};

/** How the user ran it: `npm run mock --` in the repository, `avalanche-mock` from the package (bin.ts). */
let command = 'npm run mock --';
const usage = () => `Usage: ${command} [options]${OPTIONS}`;
/** The name an error starts with: `mock: ...` in the repository, `avalanche-mock: ...` from the package. */
const errorPrefix = () => (command.startsWith('npm run ') ? 'mock' : command);

function fail(message: string): never {
  return exitWithUsage(errorPrefix(), usage(), message);
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
    if (arg === '--api-admin-enabled' || arg === '--api-keystore-enabled' || arg === '--index-enabled') {
      const next = argv[i + 1];
      if (next === 'true' || next === 'false') {
        out.push(`${arg}=${next}`);
        i++;
      } else out.push(`${arg}=true`);
    } else out.push(arg);
  }
  return out;
}

/** The --fork-* flags as the fork option; the others without --fork-url are refused. */
function forkOf(values: Record<string, unknown>, number: (value: string | undefined) => unknown) {
  const url = values['fork-url'] as string | undefined;
  const height = values['fork-height'] as string | undefined;
  const cacheDir = values['fork-cache-dir'] as string | undefined;
  const noCache = values['no-fork-cache'] === true;
  if (url === undefined) {
    if (height !== undefined || cacheDir !== undefined || noCache)
      fail('--fork-height, --fork-cache-dir and --no-fork-cache need --fork-url');
    return undefined;
  }
  if (cacheDir !== undefined && noCache) fail('--fork-cache-dir and --no-fork-cache exclude each other');
  return {
    url,
    ...(height === undefined ? {} : { height: number(height) }),
    ...(noCache ? { cacheDir: false } : cacheDir === undefined ? {} : { cacheDir }),
  };
}

/** Parses the flags, starts the node and prints where it listens; exits on bad flags. The node, for bench/. */
export async function runCli(argv: string[], commandName = 'npm run mock --'): Promise<StartedNode> {
  command = commandName;
  const values = parseCli(
    errorPrefix(),
    usage(),
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
      'fork-url': { type: 'string' },
      'fork-height': { type: 'string' },
      'fork-cache-dir': { type: 'string' },
      'no-fork-cache': { type: 'boolean', default: false },
      'api-admin-enabled': { type: 'string' },
      'api-keystore-enabled': { type: 'string' },
      'index-enabled': { type: 'string' },
      'node-version': { type: 'string' },
      'http-allowed-hosts': { type: 'string' },
      'http-max-body-bytes': { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
    { args: normalizeFlags(argv) },
  );
  const lines = lineWriter((text) => process.stdout.write(text));
  process.once('exit', lines.flush);
  const number = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : value);
  const options = {
    port: number(values.port),
    host: values.host,
    network: values.network,
    accounts: number(values.accounts),
    seed: values.seed,
    utxosPerAccount: number(values['utxos-per-account']),
    blockTime: number(values['block-time']),
    mining: values['no-mining'] ? false : undefined,
    devControls: values['no-dev'] ? false : undefined,
    state: values.state,
    fork: forkOf(values, number),
    adminEnabled: flag(values['api-admin-enabled'], 'api-admin-enabled'),
    keystoreEnabled: flag(values['api-keystore-enabled'], 'api-keystore-enabled'),
    indexEnabled: flag(values['index-enabled'], 'index-enabled'),
    nodeVersion: values['node-version'],
    allowedHosts: values['http-allowed-hosts']?.split(',').map((h) => h.trim()),
    maxBodyBytes: number(values['http-max-body-bytes']),
    log: values.quiet ? undefined : (line: string) => lines.logTimed(line),
  };
  let resolved: Resolved;
  try {
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    resolved = resolveOptions(given as StartOptions, (key) => FLAGS[key], 9650);
  } catch (error) {
    return fail((error as Error).message);
  }

  try {
    // Ready when it says it listens, as anvil and Hardhat's node are: what a first tx or C-Chain call would wait for in
    // one piece (avalanchejs, EDR's library, libsecp256k1: ~30 ms of CPU) is loaded first, not on that call.
    for (const load of START_UP_LOADS) await load();
    const node = await startWithOptions(resolved);
    const { nodeVersion, mining } = resolved.serve;
    const release = nodeVersion === 'all' ? 'serving every release' : (nodeVersion ?? newestSpecVersion(mockModel()));
    console.log(`mock AvalancheGo node ${release} listening on ${node.url} (${node.nodeID})`);
    const { world } = node;
    console.log(
      `network: ${world.network.name} (network ID ${world.network.networkID}, HRP ${world.network.hrp}); ` +
        `X-Chain ${world.chainIDs.X}, AVAX ${world.network.avaxAssetID}`,
    );
    console.log(
      `blocks: ${
        mining?.mode === 'interval'
          ? `every ${mining.blockTimeMs} ms`
          : mining?.mode === 'manual'
            ? 'only when mined (dev.mine)'
            : 'automine (one per transaction)'
      }`,
    );
    console.log(`endpoints: ${[...new Set(node.routes.values())].join(', ')}; e.g. ${node.url}/ext/bc/X`);
    console.log(`C-Chain: ${node.url}/ext/bc/C/rpc (chain ID ${cChainIDOf(world)}, EVM started on its first call)`);
    if (world.accounts.length > 0) {
      // Test keys of a simulated network, printed on purpose (as anvil does): never use them anywhere else. Each
      // with its addresses as the chains' APIs take them: X-…, P-… and the same key's 0x… on the C-Chain.
      const shown = world.accounts.slice(0, 20);
      console.log(`\nFunded accounts (${world.accounts.length}; 2500 AVAX each on X, P and C):`);
      shown.forEach((account, i) => {
        const { xAddress, pAddress, cAddress } = fundedAccount(world, account.privateKey);
        console.log(`(${i}) ${xAddress} ${pAddress} ${cAddress} ${account.privateKey}`);
      });
      if (world.accounts.length > shown.length) console.log(`... and ${world.accounts.length - shown.length} more`);
    }
    if (world.network.name === 'local')
      console.log(
        'The ewoq key PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN holds the local genesis funds.',
      );
    if (world.fork)
      console.log(
        `fork: ${world.fork.source.url} at P-Chain height ${world.fork.heights.P}, X-Chain ${world.fork.heights.X}`,
      );
    if (node.loaded) console.log(`state: loaded from ${resolved.state}`);
    const stop = () =>
      void node.close().then(
        () => process.exit(0),
        (error: Error) => {
          console.error(`cannot save the state: ${error.message}`);
          process.exit(1);
        },
      );
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return node;
  } catch (error) {
    console.error(`cannot start the mock node: ${(error as Error).message}`);
    process.exit(1);
  }
}
