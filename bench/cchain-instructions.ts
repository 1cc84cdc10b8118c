/**
 * The `cchain` bench's atomic C → P round trip, its node in a process of its own so that valgrind counts the node
 * alone. Instructions per trip are the difference between two runs over the difference in trips, e.g.
 *   node bench/cchain-instructions.ts 10 && node bench/cchain-instructions.ts 40
 * with the node run as `valgrind --tool=callgrind --callgrind-out-file=<file> node … serve` (CALLGRIND=<file> here).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { startMockNode } from '../mock/node.ts';
import { clients, tripper } from './cchain.bench.ts';

const [arg = '10'] = process.argv.slice(2);

if (arg === 'serve') {
  const node = await startMockNode({ port: 0, world: { network: 'local', accounts: 10 } });
  console.log(node.url);
  process.stdin.resume();
  process.stdin.on('end', () => void node.close().then(() => process.exit(0)));
} else {
  const out = process.env.CALLGRIND;
  const command = [...process.execArgv, import.meta.filename, 'serve'];
  const child = out
    ? spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...command], {
        stdio: ['pipe', 'pipe', 'inherit'],
      })
    : spawn(process.execPath, command, { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const url = line.toString().trim();
  const trip = await tripper(url, await clients());
  const started = performance.now();
  for (let i = 0; i < Number(arg); i++) await trip((call) => call());
  console.log(`${arg} round trips in ${(performance.now() - started).toFixed(0)} ms`);
  child.stdin!.end();
  await once(child, 'exit');
}
