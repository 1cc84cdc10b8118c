/**
 * A client generated from another project's public document, as a user generates it (the CLI, a relative `--out`):
 * its public names hold nothing of this project (the package's name from the title or `--package-name`, the README,
 * the base error class `RpcError`, the JSDoc), its code stays within 120 columns, its errors table names each
 * documented error once by the spec's name, and the package installs and type-checks in a consumer project, where a
 * call that fails is an `RpcError` telling its documented error by name. This project's own packages keep exporting
 * the same class as `AvalancheRpcError`.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../../generated/client/dist/errors.js';
import * as avalancheClient from '../../generated/client/dist/index.js';
import { wideLines } from '../support/wide-lines.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const temp = mkdtempSync(join(tmpdir(), 'foreign-client-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const CORPUS = join(ROOT, 'test/fixtures/corpus');
/** Every public document the repository holds, by the folder its client is generated into. */
const DOCUMENTS: Array<{ out: string; spec: string; packageName?: string }> = [
  ...readdirSync(CORPUS)
    .filter((name) => statSync(join(CORPUS, name)).isDirectory())
    .map((name) => {
      const file = readdirSync(join(CORPUS, name)).find((f) => f.endsWith('.json'))!;
      return { out: name, spec: join(CORPUS, name, file) };
    }),
  { out: 'execution-apis', spec: join(ROOT, 'openrpc/vendor/execution-apis/refs-openrpc.json') },
  { out: 'petz', spec: join(CORPUS, 'openrpc-petstore/petstore.json'), packageName: 'petz' },
  { out: 'ledger', spec: join(temp, 'spec/ledger.json') },
];

/** A document that names an error written in place (`x-error-name`) and one through `components.errors`. */
const NAMED_ERRORS = {
  openrpc: '1.3.2',
  info: { title: 'Ledger', version: '2.1.0' },
  servers: [{ name: 'local', url: 'http://127.0.0.1:1/rpc' }],
  methods: [
    {
      name: 'ledger_balance',
      params: [{ name: 'account', required: true, schema: { type: 'string' } }],
      result: { name: 'balance', schema: { type: 'string' } },
      errors: [
        { code: -32010, message: 'account 42 is locked until block 7', 'x-error-name': 'AccountLocked' },
        { $ref: '#/components/errors/UnknownAccount' },
      ],
    },
    {
      name: 'ledger_nonce',
      params: [{ name: 'account', required: true, schema: { type: 'string' } }],
      result: { name: 'nonce', schema: { type: 'integer' } },
      errors: [{ $ref: '#/components/errors/UnknownAccount' }],
    },
  ],
  components: { errors: { UnknownAccount: { code: -32011, message: 'unknown account' } } },
};

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
const clientOf = (out: string) => join(temp, out, 'client');
const text = (out: string, path: string) => readFileSync(join(clientOf(out), path), 'utf8');

beforeAll(() => {
  mkdirSync(join(temp, 'spec'));
  writeFileSync(join(temp, 'spec/ledger.json'), JSON.stringify(NAMED_ERRORS, null, 2));
  for (const { out, spec, packageName } of DOCUMENTS)
    execFileSync(
      process.execPath,
      [
        join(ROOT, 'generators/bin.js'),
        '--spec',
        relative(temp, spec),
        '--out',
        out,
        '--artifact',
        'client',
        ...(packageName ? ['--package-name', packageName] : []),
      ],
      // The advice on execution-apis' examples that do not match their schemas is not this test's.
      { cwd: temp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
}, 300_000);

describe('a client generated from a public document', () => {
  it('has a client for every document (each check below would pass on none)', () => {
    expect(DOCUMENTS.length).toBeGreaterThanOrEqual(15);
    for (const { out } of DOCUMENTS) expect(files(clientOf(out)).length, out).toBeGreaterThan(5);
  });

  it('names nothing of this project: package, README, error class and JSDoc', () => {
    for (const { out, spec } of DOCUMENTS) {
      // A word the document itself writes is its own (Mimblewimble's CoinSwap API speaks of UTXOs), not this project's.
      const own = readFileSync(spec, 'utf8').toLowerCase();
      for (const path of files(clientOf(out))) {
        // The header and package.json name the toolkit that generated the package, as openapi-generator's do.
        const found = [
          ...readFileSync(path, 'utf8')
            .replaceAll('avalanche-openrpc', '')
            .matchAll(/avalanche|\bavax|AvalancheGo|platform\.get|\butxo|9650|P-Chain|X-Chain/gi),
        ].find(([word]) => !own.includes(word.toLowerCase()));
        expect(found?.[0], relative(temp, path)).toBeUndefined();
      }
      const index = text(out, 'src/index.ts');
      expect(index, out).toMatch(/^ {2}RpcError,$/m);
      expect(text(out, 'dist/index.d.ts'), out).toMatch(/^ {2}RpcError,$/m);
      expect(text(out, 'README.md'), out).toContain('Every failure rejects with a subclass of `RpcError`');
    }
  });

  it('takes its package name from the title, or from --package-name', () => {
    const name = (out: string) => (JSON.parse(text(out, 'package.json')) as { name: string }).name;
    expect(name('openrpc-petstore')).toBe('petstore-client');
    expect(name('starknet')).toBe('starknet-node-api-client');
    expect(name('petz')).toBe('petz-client');
    expect(text('petz', 'README.md')).toMatch(/^# petz-client$/m);
  });

  it('keeps every line of its code within 120 columns, headers included', () => {
    for (const { out } of DOCUMENTS)
      for (const path of files(clientOf(out)).filter((p) => /\.(ts|js)$/.test(p))) {
        expect(wideLines(readFileSync(path, 'utf8'), { quotedCode: true }), relative(temp, path)).toEqual([]);
      }
  });

  it('writes each documented error once, by the name the spec gives it', () => {
    let tables = 0;
    for (const { out } of DOCUMENTS)
      for (const path of files(join(clientOf(out), 'src'))) {
        const source = readFileSync(path, 'utf8');
        const start = source.indexOf('const DOCUMENTED_ERRORS = {');
        if (start < 0) continue;
        const documented = source.slice(start, source.indexOf('} as const;', start));
        const entries = [...documented.matchAll(/^ {2}(\w+): \[\s*(-?\d+),\s*(\/.*\/|new RegExp\()/gm)];
        tables += entries.length > 0 ? 1 : 0;
        const identities = entries.map(([, , code, pattern]) => `${code} ${pattern}`);
        expect(new Set(identities).size, relative(temp, path)).toBe(identities.length);
        // Each method's table refers to those entries by name, never repeating a pattern.
        const byMethod = source.slice(source.indexOf('const ERRORS = {'), source.indexOf('\nexport class '));
        expect(byMethod, relative(temp, path)).not.toMatch(/\[-?\d+, \//);
      }
    expect(tables).toBeGreaterThanOrEqual(3);
    const starknet = text('starknet', 'src/starknet_api_openrpc.ts');
    expect(starknet).toContain('  CONTRACT_NOT_FOUND: [20, /^Contract not found$/],');
    expect(starknet).toMatch(
      /starknetGetStorageAt: \{\n {4}CONTRACT_NOT_FOUND: DOCUMENTED_ERRORS\.CONTRACT_NOT_FOUND,/,
    );
    const ledger = text('ledger', 'src/ledger.ts');
    expect(ledger).toContain('  AccountLocked: [-32010, /^account \\d+ is locked until block \\d+$/],');
    expect(ledger).toContain('  UnknownAccount: [-32011, /^unknown account$/],');
    const ledgerTables = ledger.slice(ledger.indexOf('const DOCUMENTED_ERRORS = {'), ledger.indexOf('\nexport class '));
    expect(ledgerTables.match(/unknown account/g)).toHaveLength(1);
    expect(ledger).toContain("ledgerBalance: 'AccountLocked' | 'UnknownAccount';");
  });

  it('says in its README table the first sentence of a summary that is a paragraph', () => {
    expect(text('execution-apis', 'README.md')).toContain(
      '| `ethSendRawTransaction()` | `eth_sendRawTransaction` | Submits a raw transaction. |\n',
    );
  });

  it('says what an error’s data is in its JSDoc, not a schema’s JSON', () => {
    const starknet = text('starknet', 'src/starknet_api_openrpc.ts');
    expect(starknet).toContain('@throws {@link JsonRpcError} 40: Contract error (data: More data about the execution');
    expect(starknet).not.toContain('(data: `{"type"');
  });
});

describe('the foreign client installed in a consumer project', () => {
  const consumer = join(temp, 'consumer');
  const PROGRAM = `import { createServer } from 'node:http';
import { JsonRpcError, LedgerClient, RpcError } from 'ledger-client';

const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const { id } = JSON.parse(body);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32010, message: 'account 9 is locked until block 12' } }));
  });
});
await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
const client = new LedgerClient({ baseUrl: 'http://127.0.0.1:' + server.address().port });
let failure;
try {
  await client.ledgerBalance({ account: 'a' });
} catch (error) {
  failure = {
    rpcError: error instanceof RpcError,
    jsonRpcError: error instanceof JsonRpcError,
    documented: error.documented,
    failed: client.failed(error, 'ledgerBalance', 'AccountLocked'),
    name: Object.getPrototypeOf(JsonRpcError.prototype).constructor.name,
  };
}
server.close();
console.log(JSON.stringify(failure));
`;
  const SAMPLE = `import { type LedgerClientErrors, LedgerClient, RpcError, TimeoutError } from 'ledger-client';
import { StarknetApiOpenrpcClient } from 'starknet-node-api-client';

const ledger = new LedgerClient({ timeoutMs: 1000 });
const names: LedgerClientErrors['ledgerBalance'][] = ['AccountLocked', 'UnknownAccount'];
export async function balance(): Promise<string> {
  try {
    return await ledger.ledgerBalance({ account: 'a' });
  } catch (error) {
    if (ledger.failed(error, 'ledgerBalance', 'AccountLocked')) return error.message + names.length;
    // @ts-expect-error: ledgerNonce does not document AccountLocked
    ledger.failed(error, 'ledgerNonce', 'AccountLocked');
    if (error instanceof TimeoutError) return String(error.timeoutMs);
    if (error instanceof RpcError) return error.method + error.url;
    throw error;
  }
}
export const starknet = new StarknetApiOpenrpcClient();
`;

  beforeAll(() => {
    mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    for (const out of ['ledger', 'starknet']) {
      const [packed] = JSON.parse(
        execFileSync('npm', ['pack', clientOf(out), '--pack-destination', temp, '--json'], {
          cwd: temp,
          encoding: 'utf8',
          env: { ...process.env, npm_config_update_notifier: 'false' },
        }),
      ) as Array<{ filename: string; name: string }>;
      const folder = join(consumer, 'node_modules', packed!.name);
      mkdirSync(folder);
      execFileSync('tar', ['xzf', join(temp, basename(packed!.filename)), '-C', folder, '--strip-components=1']);
    }
    symlinkSync(join(ROOT, 'node_modules/@types'), join(consumer, 'node_modules/@types'));
    writeFileSync(join(consumer, 'main.js'), PROGRAM);
    writeFileSync(join(consumer, 'sample.ts'), SAMPLE);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2023',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: ['node'],
        },
        files: ['sample.ts'],
      }),
    );
  }, 120_000);

  it('type-checks under strict, the errors of each method checked at compile time', () => {
    // The packed packages' declarations are checked too (no skipLibCheck).
    const tsc = (() => {
      try {
        return execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', consumer], {
          encoding: 'utf8',
        });
      } catch (error) {
        return (error as { stdout: string }).stdout;
      }
    })();
    expect(tsc).toBe('');
  });

  it('fails a call with an RpcError that names its documented error', () => {
    const output = JSON.parse(execFileSync(process.execPath, ['main.js'], { cwd: consumer, encoding: 'utf8' }));
    expect(output).toEqual({
      rpcError: true,
      jsonRpcError: true,
      documented: 'AccountLocked',
      failed: true,
      name: 'RpcError',
    });
  });
});

describe("this project's own client", () => {
  it('exports the same base class as AvalancheRpcError, the name its users import', () => {
    expect(avalancheClient.AvalancheRpcError).toBe(RpcError);
    expect('RpcError' in avalancheClient).toBe(false);
    expect(Object.getPrototypeOf(avalancheClient.JsonRpcError)).toBe(avalancheClient.AvalancheRpcError);
  });
});
