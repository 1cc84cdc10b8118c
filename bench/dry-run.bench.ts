/**
 * A dry run (issue 27: at most 2 ms): `dev.simulateTx` of a signed 2-input X-Chain BaseTx, in process
 * (mock/engine/simulate.ts) and over HTTP through the mock's `/ext/dev`, beside `issueTx` of the same kind of
 * transaction (which a dry run performs on a journal mark, then reverts). Each transaction is new to the engine: a
 * dry run pays for decoding and verifying it as the real issue does. Wall time and CPU time per call: on a loaded
 * host the wall time mostly measures the other processes.
 */
import { hexEncode } from '../generators/formats.ts';
import { Engine } from '../mock/engine/engine.ts';
import { simulateTx } from '../mock/engine/simulate.ts';
import { startMockNode } from '../mock/node.ts';
import { buildWorld } from '../mock/world/genesis.ts';
import { median } from './median.ts';
import { twoInputTxs } from './mock-tx.bench.ts';

const WARMUP = 20;
const CALLS = 100;

interface Timing {
  ms: number[];
  cpuMs: number[];
}

/** Adds the wall and CPU ms of `run` to `into`, unless still warming up. */
async function time(into: Timing, counted: boolean, run: () => unknown): Promise<void> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run();
  if (!counted) return;
  into.ms.push(performance.now() - start);
  const used = process.cpuUsage(cpu);
  into.cpuMs.push((used.user + used.system) / 1000);
}

const show = (label: string, { ms, cpuMs }: Timing, target?: string) =>
  console.log(
    `${label.padEnd(52)} ${median(ms).toFixed(3)} ms median, ${median(cpuMs).toFixed(3)} ms of CPU` +
      `${target ? ` (${target})` : ''}`,
  );

/** A world of its own for each measurement: the engine remembers each signature it checked, by hash and signature. */
const worldOptions = (seed: string) => ({
  network: 'local' as const,
  accounts: WARMUP + CALLS,
  utxosPerAccount: 2,
  seed,
});

export default async function bench(): Promise<void> {
  // Dry runs and real issues alternate, so that the JIT's warming and load from elsewhere fall on both alike.
  const world = buildWorld(worldOptions('dry run'));
  const engine = new Engine(world);
  const issuing = buildWorld(worldOptions('issue'));
  const issuer = new Engine(issuing);
  const [dryTxs, realTxs] = [await twoInputTxs(world), await twoInputTxs(issuing)];
  const simulated: Timing = { ms: [], cpuMs: [] };
  const issued: Timing = { ms: [], cpuMs: [] };
  for (let i = 0; i < dryTxs.length; i++) {
    await time(simulated, i >= WARMUP, () => {
      const outcome = simulateTx(engine, world, 'X', dryTxs[i]!);
      if (!outcome.accepted) throw new Error(`the dry run refused the tx: ${outcome.error}`);
    });
    await time(issued, i >= WARMUP, () => issuer.issue('X', realTxs[i]!));
  }
  show('dev.simulateTx of a 2-input BaseTx, in process', simulated, 'target <= 2 ms');
  show('issueTx of the same kind of transaction, in process', issued);

  // Over HTTP, a dry run and a real issue of another account's transaction alternate, on one node.
  const node = await startMockNode({
    port: 0,
    world: { ...worldOptions('over HTTP'), accounts: 2 * (WARMUP + CALLS) },
  });
  try {
    const txs = await twoInputTxs(node.world);
    const call = async (method: string, params: object) => {
      const response = await fetch(`${node.url}${method.startsWith('dev.') ? '/ext/dev' : '/ext/bc/X'}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const answer = (await response.json()) as { result?: { accepted?: boolean; txID?: string } };
      if (!(answer.result?.accepted ?? answer.result?.txID)) throw new Error(`${method}: ${JSON.stringify(answer)}`);
    };
    const dryOverHttp: Timing = { ms: [], cpuMs: [] };
    const issuedOverHttp: Timing = { ms: [], cpuMs: [] };
    for (let i = 0; i < WARMUP + CALLS; i++) {
      const [dry, real] = [hexEncode(txs[2 * i]!), hexEncode(txs[2 * i + 1]!)];
      await time(dryOverHttp, i >= WARMUP, () => call('dev.simulateTx', { chain: 'X', tx: dry }));
      await time(issuedOverHttp, i >= WARMUP, () => call('avm.issueTx', { tx: real }));
    }
    show('dev.simulateTx over HTTP (fetch; both ends in process)', dryOverHttp);
    show('avm.issueTx over HTTP (fetch; both ends in process)', issuedOverHttp);
  } finally {
    await node.close();
  }
}
