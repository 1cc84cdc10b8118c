/**
 * The validating proxy's added latency: the same call made directly to a node and through the proxy, interleaved so
 * both see the same machine load, one keep-alive connection each, on 127.0.0.1. Reported at the median and the 99th
 * percentile (target: under 1 ms added at the median). Then its memory after large answers (issue 14): the proxy CLI
 * in its own process, in front of an upstream answering every call with a block of several MB, and its RSS before,
 * at the peak of many such answers, and 30 s after (target: back within 20% of the start).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Server, createServer, Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { hexEncode } from '../generators/formats.ts';
import { startProxy } from '../conform/proxy.ts';
import { loadSpecModel } from '../conform/spec.ts';
import { SpecValidator } from '../conform/validate.ts';
import { startMockNode } from '../mock/node.ts';

const WARMUP = 300;
const SAMPLES = 3000;
const BODY = '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight","params":{}}';

/** The node to measure against: the project's mock, as `npm run mock` starts it. */
async function startUpstream(): Promise<{ url: string; label: string; close: () => Promise<void> }> {
  const node = await startMockNode({ port: 0, host: '127.0.0.1' });
  return { url: node.url, label: 'the mock node', close: () => node.close() };
}

function timedCall(url: string, agent: Agent): Promise<number> {
  return new Promise((done, fail) => {
    const start = process.hrtime.bigint();
    const req = request(
      `${url}/ext/bc/P`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(Number(process.hrtime.bigint() - start) / 1e6));
      },
    );
    req.on('error', fail);
    req.end(BODY);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (value: number) => `${value.toFixed(3)} ms`;

export default async function bench(): Promise<void> {
  await latency();
  await memory();
}

const LARGE_ANSWERS = Number(process.env.PROXY_LARGE_ANSWERS ?? 200);
const SETTLE_SECONDS = Number(process.env.PROXY_SETTLE_SECONDS ?? 30);
const BLOCK_BYTES = 3 * 1024 * 1024;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;
}

async function memory(): Promise<void> {
  // One valid 6 MB answer (a block of 3 MB in the node's hex, checksum included), sent for every call.
  const block = hexEncode(new Uint8Array(BLOCK_BYTES).map((_, i) => (i * 7) & 0xff));
  const answer = (id: unknown) =>
    `{"jsonrpc":"2.0","result":{"block":"${block}","encoding":"hex"},"id":${JSON.stringify(id)}}`;
  const upstream: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown };
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer(id));
    });
  });
  // Longer than the run: a keep-alive socket the upstream closes while the proxy reuses it would end in a 502.
  upstream.keepAliveTimeout = 600_000;
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const root = join(import.meta.dirname, '..');
  const child = spawn(
    process.execPath,
    [join(root, 'conform/proxy-cli.ts'), '--upstream', upstreamUrl, '--port', '0'],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let violations = 0;
  const failures: string[] = [];
  const spawned = performance.now();
  let listeningMs: number | undefined;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk;
        violations += (chunk.toString().match(/^violation /gm) ?? []).length;
        const match = /listening on (http:\/\/\S+),/.exec(text);
        if (match) listeningMs ??= performance.now() - spawned;
        // The proxy loads its spec once it listens: the memory at start is measured with the spec loaded.
        if (match && /^spec loaded/m.test(text)) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the proxy exited (${code}) before listening: ${text}`)));
    });
    const body = (id: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'platform.getBlockByHeight',
        params: { height: '1', encoding: 'hex' },
      });
    const call = (agent: Agent, id: number) =>
      new Promise<void>((done) => {
        const req = request(
          `${url}/ext/bc/P`,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (res) => {
            res.resume();
            res.on('end', done);
            res.on('error', (error) => {
              failures.push(error.message);
              done();
            });
          },
        );
        req.on('error', (error) => {
          failures.push(error.message);
          done();
        });
        req.end(body(id));
      });
    console.log(
      `proxy CLI start: listening after ${listeningMs?.toFixed(0)} ms, spec loaded after ${(performance.now() - spawned).toFixed(0)} ms`,
    );
    const warm = new Agent({ keepAlive: true, maxSockets: 1 });
    await call(warm, 0);
    warm.destroy();
    await new Promise((done) => setTimeout(done, 2000));
    const start = rssMb(child.pid!);
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 100);
    let next = 1;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        while (next <= LARGE_ANSWERS) await call(agent, next++);
        agent.destroy();
      }),
    );
    // The proxy validates after forwarding: the end is when it has checked the last answer too.
    await new Promise((done) => setTimeout(done, 1000));
    clearInterval(sampler);
    const end = rssMb(child.pid!);
    await new Promise((done) => setTimeout(done, SETTLE_SECONDS * 1000));
    const settled = rssMb(child.pid!);
    const back = (settled - start) / start;
    console.log(
      `proxy memory, ${LARGE_ANSWERS} answers of ${(answer(1).length / 1048576).toFixed(1)} MB over 4 connections (violations logged: ${violations}, calls failed: ${failures.length}${failures.length > 0 ? `, e.g. ${failures[0]}` : ''}):`,
    );
    console.log(
      `  proxy RSS: start ${start.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, end ${end.toFixed(0)} MB, ${SETTLE_SECONDS} s later ${settled.toFixed(0)} MB (${back >= 0 ? '+' : ''}${(back * 100).toFixed(0)}% of start; target at most +20%: ${back <= 0.2 ? 'met' : 'not met'})`,
    );
  } finally {
    child.kill('SIGTERM');
    upstream.closeAllConnections();
    upstream.close();
  }
}

async function latency(): Promise<void> {
  const node = await startUpstream();
  const proxy = await startProxy({ upstream: node.url, validator: new SpecValidator(loadSpecModel()) });
  const direct = new Agent({ keepAlive: true, maxSockets: 1 });
  const proxied = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < WARMUP; i++) {
      await timedCall(node.url, direct);
      await timedCall(proxy.url, proxied);
    }
    const times = { direct: [] as number[], proxied: [] as number[] };
    for (let i = 0; i < SAMPLES; i++) {
      times.direct.push(await timedCall(node.url, direct));
      times.proxied.push(await timedCall(proxy.url, proxied));
    }
    await proxy.settled();
    const directSorted = times.direct.sort((a, b) => a - b);
    const proxiedSorted = times.proxied.sort((a, b) => a - b);
    const rows = [50, 99].map((p) => [p, percentile(directSorted, p), percentile(proxiedSorted, p)] as const);
    console.log(
      `platform.getHeight against ${node.label}, ${SAMPLES} calls each way, interleaved, keep-alive, 127.0.0.1`,
    );
    console.log('percentile   direct      via proxy   added');
    for (const [p, d, v] of rows)
      console.log(`p${String(p).padEnd(11)}${ms(d).padEnd(12)}${ms(v).padEnd(12)}${ms(v - d)}`);
    const added = rows[0]![2] - rows[0]![1];
    console.log(
      `added at the median: ${ms(added)} (target < 1 ms: ${added < 1 ? 'met' : 'NOT met'}); violations seen: ` +
        `${proxy.stats.violations}`,
    );
  } finally {
    direct.destroy();
    proxied.destroy();
    await proxy.close();
    await node.close();
  }
}
