/**
 * The soak (issue 14): the mock node in its own process, 16 keep-alive connections sending a mix of valid calls,
 * invalid params and hostile bodies (a large array of invalid items, an id nested deep, bytes that are not UTF-8,
 * malformed JSON) for SOAK_SECONDS (default 120). Reports requests, errors (target 0: a failed connection, or an answer
 * that is not a JSON-RPC response object with a result or an error) and the node's RSS at start, at the end and 30 s
 * later (target: back within 20% of the start). Nothing here asserts a time.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const SETTLE_SECONDS = Number(process.env.SOAK_SETTLE_SECONDS ?? 30);
const CONNECTIONS = 16;
const ROOT = join(import.meta.dirname, '..');

const call = (method: string, params: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

function deepId(depth: number): string {
  return `{"jsonrpc":"2.0","id":${'['.repeat(depth)}1${']'.repeat(depth)},"method":"platform.getHeight","params":{}}`;
}

function notUtf8(): Buffer {
  const head = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"platform.getBalance","params":{"addresses":["');
  return Buffer.concat([head, Buffer.alloc(20_000, 0xff), Buffer.from('"]}}')]);
}

/** [path, body] pairs; valid calls appear several times so about half the traffic is ordinary. */
function mix(): Array<[string, string | Buffer]> {
  const valid: Array<[string, string]> = [
    ['/ext/bc/P', call('platform.getHeight', {})],
    ['/ext/bc/X', call('avm.getHeight', {})],
    ['/ext/bc/P', call('platform.getBlockByHeight', { height: '0', encoding: 'hex' })],
    ['/ext/bc/P', call('platform.getCurrentValidators', {})],
  ];
  const invalid: Array<[string, string | Buffer]> = [
    ['/ext/bc/P', call('platform.getBalance', { addresses: Array(50_000).fill('x') })],
    ['/ext/bc/P', call('platform.getBalance', { addresses: ['not-an-address'] })],
    ['/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":"platform.getBlockByHeight","params":{"height":1e2}}'],
    ['/ext/bc/P', deepId(5_000)],
    ['/ext/bc/P', notUtf8()],
    ['/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":'],
    ['/ext/bc/X', call('avm.noSuchMethod', {})],
  ];
  return [...valid, ...valid, ...invalid];
}

function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

/** A documented answer: HTTP 200 and a JSON-RPC 2.0 response object holding a result or an error with a code. */
function documented(status: number, text: string): boolean {
  if (status !== 200) return false;
  try {
    const body = JSON.parse(text) as {
      jsonrpc?: unknown;
      result?: unknown;
      error?: { code?: unknown; message?: unknown };
    };
    if (body.jsonrpc !== '2.0') return false;
    return 'result' in body || (typeof body.error?.code === 'number' && typeof body.error.message === 'string');
  } catch {
    return false;
  }
}

function send(agent: Agent, port: number, path: string, body: string | Buffer): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve(documented(res.statusCode ?? 0, text) ? undefined : `HTTP ${res.statusCode}: ${text.slice(0, 120)}`);
        });
        res.on('error', (error) => resolve(`response: ${error.message}`));
      },
    );
    req.on('error', (error) => resolve(`connection: ${error.message}`));
    req.end(body);
  });
}

export default async function soak(): Promise<void> {
  const child = spawn(process.execPath, [join(ROOT, 'mock/cli.ts'), '--port', '0', '--quiet'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk;
        const match = /listening on http:\/\/[^:\s]+:(\d+)/.exec(text);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the mock exited (${code}) before listening: ${text}`)));
    });
    const bodies = mix();
    // Warm up once so the start figure is the running node's, not the half-loaded one's.
    const warm = new Agent({ keepAlive: true, maxSockets: 1 });
    for (const [path, body] of bodies) await send(warm, port, path, body);
    warm.destroy();
    await new Promise((done) => setTimeout(done, 2000));
    const start = rssKiB(child.pid!);

    let requests = 0;
    const errors: string[] = [];
    const deadline = Date.now() + SECONDS * 1000;
    const worker = async (n: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = n; Date.now() < deadline; i++) {
        const [path, body] = bodies[i % bodies.length]!;
        const problem = await send(agent, port, path, body);
        requests++;
        if (problem) errors.push(problem);
      }
      agent.destroy();
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, n) => worker(n)));
    const end = rssKiB(child.pid!);
    await new Promise((done) => setTimeout(done, SETTLE_SECONDS * 1000));
    const settled = rssKiB(child.pid!);

    const mb = (kib: number) => `${(kib / 1024).toFixed(0)} MB`;
    console.log(
      `soak: ${SECONDS} s, ${CONNECTIONS} connections, ${bodies.length}-body mix (8 valid, 7 invalid or hostile)`,
    );
    console.log(`  requests ${requests} (${(requests / SECONDS).toFixed(0)}/s), errors ${errors.length} (target 0)`);
    for (const problem of [...new Set(errors)].slice(0, 5)) console.log(`    ${problem}`);
    const back = (settled - start) / start;
    console.log(
      `  node RSS: start ${mb(start)}, end ${mb(end)}, ${SETTLE_SECONDS} s later ${mb(settled)} ` +
        `(${(back * 100).toFixed(0)}% of start; target within 20%: ${Math.abs(back) <= 0.2 ? 'met' : 'not met'})`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}
