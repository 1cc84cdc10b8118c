/**
 * `npm run docs`: serves the generated docs site on 127.0.0.1 and prints its URL. The site also opens straight from
 * disk; this is for readers who prefer a URL (and for the "try it" forms, which some browsers limit on file://).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_OUT } from '../emit/files.ts';
import { DOCS_DIR } from './generate.ts';
import { startStaticServer } from './server.ts';

const USAGE = `Usage: npm run docs -- [options]
  --port <n>     port to listen on (default 8080; 0 picks a free one)
  --host <addr>  address to listen on (default 127.0.0.1)
  --dir <path>   a docs site's folder to serve (default: generated/, its docs/ and c-chain/docs/ sites)
  --help, -h     this text`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let values: { port?: string; host?: string; dir?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      dir: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = Number(values.port ?? '8080');
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a whole number from 0 to 65535, not "${values.port}"`);
const host = values.host ?? '127.0.0.1';
// Without --dir the whole output folder is served, so the main site and the C-Chain's (generated/c-chain/docs), which
// link to each other by relative paths, are both reachable.
const dir = values.dir ?? DEFAULT_OUT;
const site = values.dir === undefined ? `${DOCS_DIR}/` : '';
if (!existsSync(join(dir, site, 'index.html')))
  fail(`no docs site in ${dir} (index.html is missing): run \`npm run generate\` first`);

try {
  const { url, close } = await startStaticServer({ root: dir, host, port, ...(site ? { home: `/${site}` } : {}) });
  console.log(`Docs at ${url}${site} (serving ${dir}; Ctrl+C to stop)`);
  const stop = () => void close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    fail(`port ${port} on ${host} is in use: pass --port <another> (or --port 0 for any free port)`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    fail(`cannot listen on ${host}: not an address of this machine`);
  fail(`cannot start the docs server: ${(error as Error).message}`);
}
