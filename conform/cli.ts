/**
 * npm run conform -- --url <base URL> [--spec <file|folder>]... [--methods <regex>] [--json <file>]
 *                    [--include-writes] [--node-version vX.Y.Z] [--blockchain-id <id or alias>] [--timeout-ms N]
 * Exit code: 0 something checked and nothing FAILed, 1 something FAILed or nothing was checked (every method
 * skipped), 2 bad usage, an unreachable node, or a URL that is not a node (HTTP 404 everywhere).
 */
import { writeFileSync } from 'node:fs';
import { formatReport, nothingChecked } from './report.ts';
import { NodeUnreachableError } from './node-version.ts';
import { NotANodeError, runConformance } from './runner.ts';
import { exitWithUsage, forTerminal, optionalNodeVersion, parseCli, requireHttpUrl } from './cli-common.ts';
import { loadValidator } from './validate.ts';

const USAGE = `Usage: npm run conform -- --url <base URL, e.g. http://127.0.0.1:9650> [options]
  --spec <path>            endpoint document or folder of them, as the generator takes it (repeatable; default: the
                           toolkit's openrpc/). Without the avalanche profile, --url is the JSON-RPC URL itself
  --methods <regex>        only methods whose wire name matches, e.g. '^platform\\.get'
  --json <file>            also write the full report as JSON
  --include-writes         also call methods that change node or chain state (issueTx, keystore, admin changes)
  --node-version vX.Y.Z    the node's release, when it does not answer info.getNodeVersion
  --blockchain-id <id>     the AVM chain to check (default X)
  --timeout-ms <n>         per-call timeout (default 10000)`;

function fail(message: string): never {
  return exitWithUsage('conform', USAGE, message);
}

const args = parseCli('conform', USAGE, {
  url: { type: 'string' },
  spec: { type: 'string', multiple: true },
  methods: { type: 'string' },
  json: { type: 'string' },
  'include-writes': { type: 'boolean', default: false },
  'node-version': { type: 'string' },
  'blockchain-id': { type: 'string' },
  'timeout-ms': { type: 'string', default: '10000' },
});
const url = requireHttpUrl('url', args.url, fail);
let methods: RegExp | undefined;
try {
  methods = args.methods === undefined ? undefined : new RegExp(args.methods);
} catch (error) {
  fail(`--methods: ${(error as Error).message}`);
}
const version = optionalNodeVersion(args['node-version'], fail);
const timeoutMs = Number(args['timeout-ms']);
if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) fail(`--timeout-ms must be a positive integer`);

const validator = await loadValidator('conform', args.spec);
if (methods && ![...validator.methods.keys()].some((name) => methods.test(name)))
  fail(`--methods ${String(methods)} matches no method of the spec`);
try {
  const report = await runConformance({
    url,
    validator,
    ...(methods ? { methods } : {}),
    includeWrites: args['include-writes'],
    ...(version ? { nodeVersion: version } : {}),
    ...(args['blockchain-id'] ? { pathVariables: { blockchainID: args['blockchain-id'] } } : {}),
    timeoutMs,
  });
  process.stdout.write(forTerminal(formatReport(report)));
  if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  const nothing = nothingChecked(report);
  if (nothing) process.stderr.write(`conform: ${nothing}\n`);
  process.exitCode = report.totals.FAIL > 0 || nothing ? 1 : 0;
} catch (error) {
  if (!(error instanceof NodeUnreachableError || error instanceof NotANodeError)) throw error;
  process.stderr.write(`conform: ${forTerminal(error.message)}\n`);
  process.exit(2);
}
