/**
 * What a C-Chain run of many cheap steps costs the mock (issue 26): eth_call, and the callTracer and prestateTracer
 * runs eth_createAccessList makes (mock/cchain/access-list.ts TRACE_GAS), of init code looping over 2-gas steps until
 * its gas runs out, at 0.5M, 1M and 2M gas. EDR records every step of every run for its stack traces, so each costs
 * time and memory in proportion to its gas: the figures say how far coreth's RPC gas cap (50,000,000) is out of reach.
 * Each run is in a process of its own, whose peak RSS is the run's. Nothing here asserts a time.
 */
import { fork } from 'node:child_process';
import { startMockNode } from '../mock/node.ts';

const GAS = [500_000, 1_000_000, 2_000_000];
const RUNS = [
  ['eth_call', undefined],
  ['debug_traceCall', { tracer: 'callTracer' }],
  ['debug_traceCall', { tracer: 'prestateTracer' }],
] as const;
/**
 * JUMPDEST, then PC POP pairs (2 gas each), then a jump back to the start: ~2 gas a step, in 2 KB of init code whose
 * intrinsic gas (~86,000) leaves the rest to the steps.
 */
const LOOP = `0x5b${'5850'.repeat(1_000)}600056`;
const EWOQ_EVM = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';

interface Answer {
  ms: number;
  rssBefore: number;
  rssPeak: number;
}

async function child(gas: number, run: number): Promise<void> {
  const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { chain } = await node.state.cChain.load();
  await chain.request('eth_blockNumber');
  const [method, tracer] = RUNS[run]!;
  const call = { from: EWOQ_EVM, data: LOOP, gas: `0x${gas.toString(16)}` };
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sample = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 10);
  const start = performance.now();
  // Out of gas, as the loop never ends: the error is the expected answer.
  await chain.request(method, tracer ? [call, 'latest', tracer] : [call, 'latest']).catch(() => undefined);
  const ms = performance.now() - start;
  clearInterval(sample);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  process.send!({ ms, rssBefore, rssPeak } satisfies Answer);
  await node.close();
}

export default async function bench(): Promise<void> {
  console.log('| run | gas | wall ms | RSS before → peak (MB) |');
  console.log('|---|---|---|---|');
  for (const gas of GAS)
    for (const [i, [method, tracer]] of RUNS.entries()) {
      const worker = fork(import.meta.filename, ['--child', String(gas), String(i)], { stdio: 'inherit' });
      const answer = await new Promise<Answer>((resolve, reject) => {
        worker.once('message', (message) => resolve(message as Answer));
        worker.once('error', reject);
      });
      await new Promise((resolve) => worker.once('exit', resolve));
      const name = tracer ? `${method} ${tracer.tracer}` : method;
      const mb = (bytes: number) => Math.round(bytes / 1e6);
      console.log(`| ${name} | ${gas} | ${Math.round(answer.ms)} | ${mb(answer.rssBefore)} → ${mb(answer.rssPeak)} |`);
    }
}

const at = process.argv.indexOf('--child');
if (at >= 0) await child(Number(process.argv[at + 1]), Number(process.argv[at + 2]));
