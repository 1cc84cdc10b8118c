/**
 * npm run proxy -- --upstream <base URL> --port <port> [--host 127.0.0.1] [--record <dir>]
 * Forwards everything to the upstream node, logs each spec violation as it is found, and prints calls and violations
 * per method on Ctrl-C (SIGINT) or SIGTERM.
 */
import { startProxy } from './proxy.ts';
import { formatSummary, formatViolation } from './proxy-stats.ts';
import { exitWithUsage, parseCli, requireHttpUrl } from './cli-common.ts';
import { loadValidator } from './validate.ts';

const USAGE = `usage: npm run proxy -- --upstream <base URL, e.g. http://127.0.0.1:9650> --port <port> [options]
  --host <address>   address to listen on (default 127.0.0.1)
  --record <dir>     write each exchange to <dir>/<seq>-<method>.json`;

function fail(message: string): never {
  return exitWithUsage('proxy', USAGE, message);
}

const args = parseCli('proxy', USAGE, {
  upstream: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  record: { type: 'string' },
});
const upstream = requireHttpUrl('upstream', args.upstream, fail);
const port = Number(args.port ?? NaN);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be a port number (0 picks a free one)');
const validator = loadValidator('proxy');

let proxy: Awaited<ReturnType<typeof startProxy>>;
try {
  proxy = await startProxy({
    upstream,
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
process.stdout.write(`proxy listening on ${proxy.url}, forwarding to ${upstream}${args.record ? `, recording into ${args.record}` : ''}\n`);

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
