/**
 * The simulated network at size: start-up of a mock whose world holds 100,000 UTXOs (500 funded accounts with 100
 * UTXOs on each of X and P), and `avm.getUTXOs` pages of 1,024 of them (some 250 KB of JSON each). Targets: start-up
 * under 1 s, a 1,024-UTXO page under 5 ms at the median. The pages are measured as an app sees them: the mock in a
 * process of its own, called by the generated XChainClient over the global fetch (keep-alive), one call after the
 * other; beside the end-to-end time, the mock's own time per call (from the request's head to the answer's last byte
 * handed to the socket) and the CPU both processes spend on it. (The mock's read throughput against node:http doing
 * only JSON is the a/e ratio of `npm run bench -- server`, whose mock answers from its world.)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { XChainClient } from '../generated/client/dist/index.js';
import { bech32Encode } from '../generators/formats.ts';
import { createMockNode, startMockNode } from '../mock/node.ts';
import { serveHttp } from '../mock/server.ts';
import { median } from './median.ts';

const WORLD = { accounts: 500, utxosPerAccount: 100 };
const WARMUP = 100;
const CALLS = 200;

type Ready = { port: number; addresses: string[] };

/** Runs in the child: the mock on a free port, timing each request it answers; sends the times when asked. */
async function serve(): Promise<void> {
  const node = createMockNode({ world: WORLD });
  const times: number[] = [];
  const { server } = await serveHttp(
    (req, res) => {
      const started = performance.now();
      res.on('finish', () => times.push(performance.now() - started));
      node.listener(req, res);
    },
    0,
    '127.0.0.1',
  );
  const addresses = node.world.accounts
    .slice(0, 11)
    .map((a) => `X-${bech32Encode(node.world.network.hrp, Buffer.from(a.address, 'hex'))}`);
  const { port } = server.address() as { port: number };
  process.send!({ port, addresses } satisfies Ready);
  process.on('message', (message) => {
    if (message === 'times') process.send!(times.splice(0));
    if (message === 'stop') process.exit(0);
  });
}

/** CPU time (ms) a process has used, from /proc (Linux; undefined elsewhere). */
function cpuOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const next = <T>(child: ChildProcess) =>
  new Promise<T>((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code}`)));
  });

async function startUp(): Promise<void> {
  const starts: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const node = await startMockNode({ port: 0, world: WORLD });
    const used = process.cpuUsage(cpu);
    starts.push(performance.now() - started);
    cpus.push((used.user + used.system) / 1000);
    if (i === 2) {
      const utxos = node.world.utxos.X.size + node.world.utxos.P.size;
      console.log(
        `start-up with ${utxos} UTXOs: ${median(starts).toFixed(0)} ms median of 3, ${median(cpus).toFixed(0)} ms ` +
          `of CPU (first ${cpus[0]!.toFixed(0)} ms) (target < 1000 ms)`,
      );
    }
    await node.close();
  }
}

async function pages(): Promise<void> {
  const child = fork(import.meta.filename, ['--serve'], { stdio: 'inherit' });
  try {
    const { port, addresses } = await next<Ready>(child);
    const client = new XChainClient({ baseUrl: `http://127.0.0.1:${port}` });
    const page = () => client.getUTXOs({ addresses, limit: 1024, encoding: 'hex' });
    const first = await page();
    if (first.numFetched !== '1024' || first.utxos.length !== 1024)
      throw new Error('the page does not hold 1,024 UTXOs');
    for (let i = 1; i < WARMUP; i++) await page();
    child.send('times');
    await next<number[]>(child);
    const times: number[] = [];
    const cpu = process.cpuUsage();
    const serverCpu = cpuOf(child.pid!);
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await page();
      times.push(performance.now() - started);
    }
    const used = process.cpuUsage(cpu);
    const serverUsed = cpuOf(child.pid!);
    child.send('times');
    const serverTimes = await next<number[]>(child);
    const perCall = (ms: number) => `${(ms / CALLS).toFixed(2)} ms`;
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `avm.getUTXOs of 1024 UTXOs (${Buffer.byteLength(JSON.stringify(first))} bytes of result), mock in its own ` +
        `process, generated client over keep-alive fetch, ${CALLS} calls in a row:`,
    );
    console.log(
      `  end to end: ${median(times).toFixed(2)} ms median, ${sorted[Math.floor(CALLS * 0.9)]!.toFixed(2)} ms p90 ` +
        `(target < 5 ms median)`,
    );
    console.log(
      `  in the mock (request head to last byte written): ${median(serverTimes).toFixed(2)} ms median; CPU per call: ` +
        `mock ${serverCpu === undefined || serverUsed === undefined ? 'n/a (needs /proc)' : perCall(serverUsed - serverCpu)}, ` +
        `client ${perCall((used.user + used.system) / 1000)}`,
    );
  } finally {
    child.send('stop');
  }
}

export default async function bench(): Promise<void> {
  // Pages first: a client process that has just built and dropped three 100,000-UTXO worlds pays their garbage
  // collection in its calls, which an app's client would not.
  await pages();
  await startUp();
}

if (process.argv[2] === '--serve' && realpathSync(process.argv[1]!) === realpathSync(import.meta.filename)) {
  await serve();
}
