/**
 * The figures a user waits on, each run as package.json's script runs it: a cold `npm run generate` (the first after
 * installing, no cache of any kind), a warm one, and a `--watch` rebuild after a save (`npm run mock`'s start-up is
 * bench/mock-start.bench.ts). bench/README.md lists the speed devices these figures justify.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './median.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = 3;
const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

/** A script's command with its arguments, run by the shell as npm runs it, minus npm's own start. */
export function script(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): [string, string[], { env: NodeJS.ProcessEnv }] {
  const command = `${SCRIPTS[name]} ${args.map((a) => `'${a}'`).join(' ')}`;
  return ['sh', ['-c', command], { env: { ...env, PATH: `${join(ROOT, 'node_modules/.bin')}:${env.PATH}` } }];
}

/**
 * Every cache a run could find: the toolkit's own and Node's compile cache, pointed at a fresh folder (never emptied
 * in place: node_modules may be shared with other checkouts, whose runs read it meanwhile). Each Node
 * process of a run (two under tsx, before issue 25) adds its CPU time to `cpu-<round>` as it exits: on a loaded host
 * the CPU time is the steadier figure.
 */
export function freshEnv(work: string, round: number | string): NodeJS.ProcessEnv {
  const preload = join(work, 'cpu.mjs');
  writeFileSync(
    preload,
    "import { appendFileSync } from 'node:fs';\n" +
      "process.once('SIGTERM', () => process.exit(0));\n" +
      "process.on('exit', () => { const u = process.resourceUsage(); " +
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a preload, whose template Node evaluates
      'appendFileSync(process.env.BENCH_CPU_FILE, `${(u.userCPUTime + u.systemCPUTime) / 1000}\\n`); });\n',
  );
  return {
    ...process.env,
    NODE_COMPILE_CACHE: join(work, `compile-cache-${round}`),
    NODE_OPTIONS: `--import ${preload}`,
    BENCH_CPU_FILE: join(work, `cpu-${round}`),
  };
}

/** The CPU time the runs under `env` took since the last call, every Node process summed. */
export function cpuSince(env: NodeJS.ProcessEnv): number {
  const file = env.BENCH_CPU_FILE!;
  let total = 0;
  try {
    total = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .reduce((a, b) => a + b, 0);
  } catch {}
  rmSync(file, { force: true });
  return total;
}

export interface Time {
  ms: number;
  cpuMs: number;
}

/** One `npm run generate` with `args` under `env`, to its end. */
export function generateOnce(generateArgs: string[], env: NodeJS.ProcessEnv): Time {
  const [command, args, options] = script('generate', generateArgs, env);
  const start = performance.now();
  const run = spawnSync(command, args, { ...options, cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm run generate failed:\n${run.stderr}`);
  return { ms: performance.now() - start, cpuMs: cpuSince(env) };
}

/** Resolves with the first line of `child`'s output that matches, with the time it came. */
export function lineMatching(child: ChildProcess, pattern: RegExp): Promise<{ line: string; at: number }> {
  return new Promise((found, failed) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const lines = text.split('\n');
      text = lines.pop() ?? '';
      const line = lines.find((l) => pattern.test(l));
      if (line !== undefined) {
        child.stdout!.off('data', onData);
        found({ line, at: performance.now() });
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => failed(new Error(`exited ${code} before printing ${pattern}`)));
  });
}

/** CPU time so far of the live processes of a process group, from /proc (Linux), in ms. */
function groupCpuMs(group: number): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // Fields after the command's closing parenthesis: state ppid pgrp ... utime (12th) stime (13th).
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks * 10;
}

async function watchRebuilds(work: string, env: NodeJS.ProcessEnv): Promise<Time[]> {
  const spec = join(work, 'watch-spec');
  cpSync(join(ROOT, 'openrpc'), spec, { recursive: true });
  const [command, args, options] = script('generate', ['--watch', '--spec', spec, '--out', join(work, 'watch')], env);
  const child = spawn(command, args, { ...options, cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  try {
    await lineMatching(child, /^watching /);
    const times: Time[] = [];
    const file = join(spec, 'p-chain.json');
    const original = readFileSync(file, 'utf8');
    for (let round = 0; round < ROUNDS; round++) {
      const done = lineMatching(child, /^run \d+ done in/);
      const saved = performance.now();
      const cpuBefore = groupCpuMs(child.pid!);
      writeFileSync(file, round % 2 === 0 ? `${original}\n` : original);
      const { at } = await done;
      times.push({ ms: at - saved, cpuMs: groupCpuMs(child.pid!) - cpuBefore });
    }
    return times;
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
  }
}

export const show = (label: string, times: Time[]) =>
  console.log(
    `${label.padEnd(48)} median ${median(times.map((t) => t.ms)).toFixed(0)} ms, ` +
      `CPU ${median(times.map((t) => t.cpuMs)).toFixed(0)} ms (${times.map((t) => t.ms.toFixed(0)).join(', ')})`,
  );

export default async function waitBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'wait-bench-'));
  try {
    const cold: Time[] = [];
    const warm: Time[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const env = freshEnv(work, round);
      cold.push(generateOnce(['--out', join(work, `cold-${round}`)], env));
      warm.push(generateOnce(['--out', join(work, `warm-${round}`)], env));
    }
    show('npm run generate, cold (no cache)', cold);
    show('npm run generate, warm', warm);
    show('npm run generate --watch, rebuild after a save', await watchRebuilds(work, freshEnv(work, 'watch')));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
