/**
 * `npm run mock` from its start to its first answer, as package.json's script runs it, against node starting a bare
 * node:http server launched the same way (issue 25: the mock answers within 300 ms of it). The mock starts: the first
 * after the README's quick start (`npm ci && npm run generate`: the caches those left, their postinstall's and
 * generate's, generators/cli-mock-caches.ts), the one a user meets first; the first after `npm ci` alone; with no cache
 * of any kind (V8's code, the stripped sources, the spec model: generators/compile-cache.js, mock/model-cache.ts), a
 * state no user reaches through the npm scripts but the measure of what the caches save; warm, with the caches a
 * previous start left. CPU time is every Node process of the launch. The start includes what the CLI loads before it
 * listens so that no first call waits for it (mock/lazy-cchain.ts START_UP_LOADS: avalanchejs, EDR, libsecp256k1).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.ts';
import { BARE_SERVER } from './mock-tx.bench.ts';
import { type Time, cpuSince, freshEnv, generateOnce, lineMatching, script, show } from './wait.bench.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = 5;

/** A preload that writes the URL of each module loaded (a `module.registerHooks` load hook) when its process ends. */
const MODULE_COUNTER = `import module from 'node:module';
import { writeFileSync } from 'node:fs';
const loaded = [];
module.registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on('exit', () => writeFileSync(process.env.BENCH_MODULES_FILE, loaded.join('\\n')));
`;

/** The modules a warm `npm run mock` loads to its first answer, counted by where they come from. */
async function modulesToFirstAnswer(work: string, warm: NodeJS.ProcessEnv): Promise<string> {
  const counter = join(work, 'count-modules.mjs');
  const list = join(work, 'modules');
  writeFileSync(counter, MODULE_COUNTER);
  const env = { ...warm, NODE_OPTIONS: `${warm.NODE_OPTIONS} --import ${counter}`, BENCH_MODULES_FILE: list };
  await firstAnswer(script('mock', ['--port', '0'], env));
  const urls = readFileSync(list, 'utf8').split('\n');
  const groups = new Map<string, number>();
  for (const url of urls) {
    const dependency = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    const group = !url.startsWith('file:')
      ? 'node:'
      : (dependency ?? relative(ROOT, fileURLToPath(url)).split(sep)[0]!);
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  const counts = [...groups].sort((a, b) => b[1] - a[1]).map(([group, n]) => `${group} ${n}`);
  return `${urls.length} (${counts.join(', ')})`;
}

/** package.json's postinstall, which `npm ci` runs last, under `env`, to its end. */
function postinstallOnce(env: NodeJS.ProcessEnv): Time {
  const [command, args, options] = script('postinstall', [], env);
  const start = performance.now();
  const run = spawnSync(command, args, { ...options, cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0 || run.stderr.includes('npm run mock')) throw new Error(`postinstall failed:\n${run.stderr}`);
  return { ms: performance.now() - start, cpuMs: cpuSince(env) };
}

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
    const afterGenerate: Time[] = [];
    const afterInstall: Time[] = [];
    const noCache: Time[] = [];
    const warmStarts: Time[] = [];
    const bares: Time[] = [];
    // What `npm ci` runs last (package.json's postinstall), then the project's own generate, as the quick start runs
    // them (on a tree whose generated/ is current generate writes nothing); each round starts from a copy of the
    // caches they left.
    const installed = freshEnv(work, 'installed');
    const postinstall = postinstallOnce(installed);
    const generated = freshEnv(work, 'generated');
    postinstallOnce(generated);
    const generate = generateOnce([], generated);
    const copyOf = (env: NodeJS.ProcessEnv, name: string) => {
      const copy = freshEnv(work, name);
      cpSync(env.NODE_COMPILE_CACHE!, copy.NODE_COMPILE_CACHE!, { recursive: true });
      return copy;
    };
    const warm = freshEnv(work, 'warm');
    const bareEnv = freshEnv(work, 'bare');
    // Fills the warm compile cache.
    await firstAnswer(script('mock', ['--port', '0'], warm));
    // Alternated, so that load from elsewhere on a shared machine falls on all four alike.
    for (let round = 0; round < ROUNDS; round++) {
      afterGenerate.push(await firstAnswer(script('mock', ['--port', '0'], copyOf(generated, `generated-${round}`))));
      afterInstall.push(await firstAnswer(script('mock', ['--port', '0'], copyOf(installed, `installed-${round}`))));
      noCache.push(await firstAnswer(script('mock', ['--port', '0'], freshEnv(work, `cold-${round}`))));
      warmStarts.push(await firstAnswer(script('mock', ['--port', '0'], warm)));
      bares.push(await firstAnswer(bareCommand(bareEnv)));
    }
    show("npm ci's postinstall (the caches it leaves)", [postinstall]);
    show('npm run generate after it', [generate]);
    show('npm run mock, first start after npm ci && generate', afterGenerate);
    show('npm run mock, first start after npm ci alone', afterInstall);
    show('npm run mock, first start with no cache at all', noCache);
    show('npm run mock, warm', warmStarts);
    show('node starting a bare node:http server', bares);
    console.log(`modules npm run mock loads to its first answer: ${await modulesToFirstAnswer(work, warm)}`);
    // On a loaded host the wall times mostly measure the neighbours: the CPU over the bare server's is the steadier.
    const over = (times: Time[], of: keyof Time) => median(times.map((t, i) => t[of] - bares[i]![of])).toFixed(0);
    const figures = (of: keyof Time) =>
      `after npm ci && generate ${over(afterGenerate, of)}, after npm ci ${over(afterInstall, of)}, ` +
      `no cache ${over(noCache, of)}, warm ${over(warmStarts, of)}`;
    console.log(
      `npm run mock answers after the bare server by (ms, median of each round's difference; target <= 300): ` +
        `${figures('ms')}; CPU over the bare server's (ms): ${figures('cpuMs')}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
