/**
 * The simulated network at size: start-up of a mock whose world holds 100,000 UTXOs (500 funded accounts with 100
 * UTXOs on each of X and P), and `avm.getUTXOs` pages of 1,024 of them over HTTP. Targets: start-up under 1 s,
 * a 1,024-UTXO page under 5 ms at the median. (The mock's read throughput against node:http doing only JSON is the
 * a/e ratio of `npm run bench -- server`, whose mock answers from its world.)
 */
import { bech32Encode } from '../generators/formats.ts';
import { startMockNode } from '../mock/node.ts';
import { median } from './median.ts';

const WORLD = { accounts: 500, utxosPerAccount: 100 };

export default async function bench(): Promise<void> {
  const starts: number[] = [];
  const cpus: number[] = [];
  let node: Awaited<ReturnType<typeof startMockNode>> | undefined;
  for (let i = 0; i < 3; i++) {
    await node?.close();
    const started = performance.now();
    const cpu = process.cpuUsage();
    node = await startMockNode({ port: 0, world: WORLD });
    const used = process.cpuUsage(cpu);
    starts.push(performance.now() - started);
    cpus.push((used.user + used.system) / 1000);
  }
  const utxos = node!.world.utxos.X.size + node!.world.utxos.P.size;
  console.log(
    `start-up with ${utxos} UTXOs: ${median(starts).toFixed(0)} ms median of 3, ${median(cpus).toFixed(0)} ms of CPU (first ${cpus[0]!.toFixed(0)} ms) (target < 1000 ms)`,
  );

  const addresses = node!.world.accounts
    .slice(0, 11)
    .map((a) => `X-${bech32Encode('local', Buffer.from(a.address, 'hex'))}`);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'avm.getUTXOs',
    params: { addresses, limit: 1024, encoding: 'hex' },
  });
  const page = async () => {
    const response = await fetch(`${node!.url}/ext/bc/X`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return (await response.json()) as { result: { numFetched: string } };
  };
  if ((await page()).result.numFetched !== '1024') throw new Error('the page does not hold 1,024 UTXOs');
  const times: number[] = [];
  let cpu = process.cpuUsage();
  for (let i = 0; i < 60; i++) {
    if (i === 10) cpu = process.cpuUsage();
    const started = performance.now();
    await page();
    times.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  console.log(
    `avm.getUTXOs of 1024 UTXOs: ${median(times.slice(10)).toFixed(2)} ms median of 50, ${((used.user + used.system) / 1000 / 50).toFixed(2)} ms of CPU per page, client included (target < 5 ms)`,
  );
  await node!.close();
}
