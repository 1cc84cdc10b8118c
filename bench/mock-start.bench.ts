/**
 * `npm run mock` from its start to its first answer, as package.json's script runs it, against node starting a bare
 * node:http server launched the same way (issue 25: the mock answers within 300 ms of it). Cold: no cache of any
 * kind, as after installing (V8's code, the stripped sources and the spec model: generators/compile-cache.js,
 * mock/model-cache.ts); warm: the caches a previous start left. CPU time is every Node process of the launch.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './median.ts';
import { BARE_SERVER } from './mock-tx.bench.ts';
import { type Time, cpuSince, freshEnv, lineMatching, script, show } from './wait.bench.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = 5;

/** Start to first answer of a shell command that prints `listening on <url>`, then stops it. */
async function firstAnswer([command, args, options]: ReturnType<typeof script>): Promise<Time> {
  const start = performance.now();
  const child = spawn(command, args, { ...options, cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  // The whole process group gone (the shell and every Node process under it), so that each has written its CPU time.
  const stop = async () => {
    process.kill(-child.pid!, 'SIGTERM');
    for (;;) {
      try {
        process.kill(-child.pid!, 0);
      } catch {
        return;
      }
      await new Promise((tick) => setTimeout(tick, 5));
    }
  };
  try {
    const { line } = await lineMatching(child, /listening on /);
    const url = /listening on (\S+)/.exec(line)![1]!;
    const answer = await fetch(`${url}/ext/bc/X`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":{}}',
    });
    if (!answer.ok) throw new Error(`${args.join(' ')} answered ${answer.status}`);
    await answer.arrayBuffer();
    const ms = performance.now() - start;
    await stop();
    return { ms, cpuMs: cpuSince(options.env) };
  } catch (error) {
    await stop();
    throw error;
  }
}

export default async function mockStartBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mock-start-bench-'));
  try {
    const bare = join(work, 'bare.mjs');
    writeFileSync(bare, BARE_SERVER);
    const bareCommand = (env: NodeJS.ProcessEnv): ReturnType<typeof script> => [
      'sh',
      ['-c', `node ${bare}`],
      { env: { ...env, PATH: `${join(ROOT, 'node_modules/.bin')}:${env.PATH}` } },
    ];
    const mockCold: Time[] = [];
    const mockWarm: Time[] = [];
    const bares: Time[] = [];
    const warm = freshEnv(work, 'warm');
    const bareEnv = freshEnv(work, 'bare');
    // Fills the warm compile cache.
    await firstAnswer(script('mock', ['--port', '0'], warm));
    // Alternated, so that load from elsewhere on a shared machine falls on all three alike.
    for (let round = 0; round < ROUNDS; round++) {
      mockCold.push(await firstAnswer(script('mock', ['--port', '0'], freshEnv(work, `cold-${round}`))));
      mockWarm.push(await firstAnswer(script('mock', ['--port', '0'], warm)));
      bares.push(await firstAnswer(bareCommand(bareEnv)));
    }
    show('npm run mock, start to first answer, cold', mockCold);
    show('npm run mock, start to first answer, warm', mockWarm);
    show('node starting a bare node:http server', bares);
    // On a loaded host the wall times mostly measure the neighbours: the CPU over the bare server's is the steadier.
    const over = (times: Time[], of: keyof Time) => median(times.map((t, i) => t[of] - bares[i]![of])).toFixed(0);
    console.log(
      `npm run mock answers after the bare server by: cold ${over(mockCold, 'ms')} ms, warm ${over(mockWarm, 'ms')} ` +
        `ms (median of each round's difference; target <= 300 ms); CPU over the bare server's: cold ` +
        `${over(mockCold, 'cpuMs')} ms, warm ${over(mockWarm, 'cpuMs')} ms`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
