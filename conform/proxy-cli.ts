/**
 * npm run proxy -- --upstream <base URL> --port <port> [--host 127.0.0.1] [--record <dir>]
 * Forwards everything to the upstream node, logs each spec violation as it is found, and prints calls and violations
 * per method on Ctrl-C (SIGINT) or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startProxy } from './proxy.ts';
import { formatSummary, formatViolation } from './proxy-stats.ts';
import { loadSpecModel } from './spec.ts';
import { SpecValidator } from './validate.ts';

const USAGE = `usage: npm run proxy -- --upstream <base URL, e.g. http://127.0.0.1:9650> --port <port> [options]
  --host <address>   address to listen on (default 127.0.0.1)
  --record <dir>     write each exchange to <dir>/<seq>-<method>.json`;

function fail(message: string): never {
  process.stderr.write(`proxy: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    options: {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      record: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  }).values;
} catch (error) {
  fail((error as Error).message);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!args.upstream) fail('--upstream is required');
try {
  const url = new URL(args.upstream);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`--upstream must be http(s), not ${url.protocol}`);
} catch {
  fail(`--upstream "${args.upstream}" is not a URL`);
}
const port = Number(args.port ?? NaN);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be a port number (0 picks a free one)');

let validator: SpecValidator;
try {
  validator = new SpecValidator(loadSpecModel());
} catch (error) {
  // A broken spec or a stale generated/server: nothing to check against.
  process.stderr.write(`proxy: ${(error as Error).message}\n`);
  process.exit(2);
}

let proxy;
try {
  proxy = await startProxy({
    upstream: args.upstream,
    validator,
    port,
    host: args.host,
    ...(args.record ? { record: args.record } : {}),
    onViolation: (v) => process.stdout.write(`violation ${formatViolation(v)}\n`),
    onUpstreamError: (message) => process.stderr.write(`proxy: 502 to the caller: ${message}\n`),
  });
} catch (error) {
  fail(`cannot listen on ${args.host}:${port}: ${(error as Error).message}`);
}
process.stdout.write(`proxy listening on ${proxy.url}, forwarding to ${args.upstream}${args.record ? `, recording into ${args.record}` : ''}\n`);

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
