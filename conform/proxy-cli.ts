/**
 * npm run proxy -- --upstream <base URL> --port <port> [--spec <file|folder>]... [--host 127.0.0.1] [--record <dir>]
 *                  [--timeout-ms <n>] [--answer-timeout-ms <n>] [--host-header <name>]
 * Forwards everything to the upstream node, logs each spec violation as it is found (and each method outside the
 * spec the first time it passes), and prints calls and violations per method on Ctrl-C (SIGINT) or SIGTERM. No line
 * it prints holds a value the spec marks x-sensitive.
 */
import { MAX_CONNECTIONS, UPSTREAM_SOCKETS } from './proxy-intake.ts';
import { startProxy } from './proxy.ts';
import { OTHER_METHODS, UNKNOWN_ROWS, formatSummary, formatViolation, printable } from './proxy-stats.ts';
import { exitWithUsage, parseCli, requireHttpUrl } from './cli-common.ts';
import { loadValidatorAside } from './proxy-spec.ts';
import type { SpecValidator } from './validate.ts';

const USAGE = `usage: npm run proxy -- --upstream <base URL, e.g. http://127.0.0.1:9650> --port <port> [options]
  --spec <path>              endpoint document or folder of them, as the generator takes it (repeatable;
                             default: the toolkit's openrpc/)
  --host <address>           address to listen on (default 127.0.0.1)
  --record <dir>             write each exchange to <dir>/<seq>-<method>.json (mode 0600, secrets redacted)
  --timeout-ms <n>           how long the upstream may stay silent before the caller gets 504 (default 30000)
  --answer-timeout-ms <n>    how long a whole answer may take before the caller gets 504, or is cut once the
                             answer has begun (default 120000)
  --host-header <h>          send this Host header upstream (default: the caller's, as sent)
  --max-connections <n>      caller connections held at once; one more gets 503 at once (default ${MAX_CONNECTIONS}:
                             with at most ${UPSTREAM_SOCKETS} sockets upstream, within ulimit -n 1024)
WebSocket upgrades (e.g. /ext/bc/C/ws) are relayed to the upstream's same path, their frames unchecked.`;

function fail(message: string): never {
  return exitWithUsage('proxy', USAGE, message);
}

const args = parseCli('proxy', USAGE, {
  upstream: { type: 'string' },
  spec: { type: 'string', multiple: true },
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  record: { type: 'string' },
  'timeout-ms': { type: 'string', default: '30000' },
  'answer-timeout-ms': { type: 'string', default: '120000' },
  'host-header': { type: 'string' },
  'max-connections': { type: 'string', default: String(MAX_CONNECTIONS) },
});
const upstream = requireHttpUrl('upstream', args.upstream, fail);
const port = Number(args.port ?? NaN);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be a port number (0 picks a free one)');
const timeoutMs = Number(args['timeout-ms']);
if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
  fail('--timeout-ms must be a positive whole number of milliseconds');
const answerTimeoutMs = Number(args['answer-timeout-ms']);
if (!Number.isInteger(answerTimeoutMs) || answerTimeoutMs <= 0)
  fail('--answer-timeout-ms must be a positive whole number of milliseconds');
const maxConnections = Number(args['max-connections']);
if (!Number.isInteger(maxConnections) || maxConnections <= 0) fail('--max-connections must be a positive whole number');
// The toolkit's own spec (checked when generated/ was made) loads once the proxy listens, while it forwards
// (./proxy-spec.ts); exchanges are checked once it is there. A spec given with --spec is the user's to get right:
// one that does not load is refused before the proxy listens.
const given = args.spec && args.spec.length > 0 ? args.spec : undefined;
const specName = given ? given.join(', ') : "the toolkit's openrpc/";
const stopOn = (error: Error): never => {
  // A broken spec or a stale generated/server: nothing to check against, so no proxy.
  process.stderr.write(`proxy: ${error.message}\n`);
  process.exit(2);
};
let load!: () => void;
let validator: Promise<SpecValidator>;
if (given) {
  process.stdout.write(`loading the spec from ${specName} ...\n`);
  validator = Promise.resolve(await loadValidatorAside(given).catch(stopOn));
  load = () => {};
} else {
  validator = new Promise<void>((resolve) => (load = resolve)).then(() => loadValidatorAside(undefined));
  validator.catch(() => {});
}

let proxy: Awaited<ReturnType<typeof startProxy>>;
try {
  proxy = await startProxy({
    upstream,
    validator,
    port,
    host: args.host,
    timeoutMs,
    answerTimeoutMs,
    maxConnections,
    ...(args.record ? { record: args.record } : {}),
    ...(args['host-header'] ? { hostHeader: args['host-header'] } : {}),
    onViolation: (v) => process.stdout.write(`violation ${formatViolation(v)}\n`),
    onUnknownMethod: (method, seq) =>
      process.stdout.write(
        method === OTHER_METHODS
          ? `unknown #${seq} ${method}: ${UNKNOWN_ROWS} names outside the spec seen; later ones are counted together ` +
              'and not logged\n'
          : `unknown #${seq} ${method}: not in the spec, passed through unchecked (logged once per method)\n`,
      ),
    onUpstreamError: (message) => process.stderr.write(`proxy: ${message}\n`),
    onInternalError: (message) => process.stderr.write(`proxy: ${message}\n`),
    // Once: under a flood of callers a line per refusal would be a flood of its own (the summary counts them).
    onWebSocket: (path, count) => {
      if (count === 1)
        process.stdout.write(
          `websocket ${printable(path)}: relayed to the upstream, its frames unchecked (logged for the first only)\n`,
        );
    },
    onRefused: (message) => {
      if (proxy?.stats.refused === 1) process.stderr.write(`proxy: ${message} (said once; the summary counts them)\n`);
    },
  });
} catch (error) {
  fail(`cannot listen on ${args.host}:${port}: ${(error as Error).message}`);
}
process.stdout.write(
  `proxy listening on ${proxy.url}, forwarding to ${upstream}${args.record ? `, recording into ${args.record}` : ''}\n`,
);
if (!given)
  process.stdout.write(
    `loading the spec from ${specName}: calls are forwarded meanwhile and checked once it is loaded\n`,
  );
load();
validator.then(
  (loaded) => process.stdout.write(`spec loaded: ${loaded.methods.size} methods; checking every call\n`),
  async (error: Error) => {
    await proxy.close();
    stopOn(error);
  },
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await proxy.close();
  process.stdout.write(formatSummary(proxy.stats));
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
