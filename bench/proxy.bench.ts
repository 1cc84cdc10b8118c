/**
 * The validating proxy's added latency: the same call made directly to a node and through the proxy, interleaved so
 * both see the same machine load, one keep-alive connection each, on 127.0.0.1. Reported at the median and the 99th
 * percentile (target: under 1 ms added at the median).
 */
import { Agent, request } from 'node:http';
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
