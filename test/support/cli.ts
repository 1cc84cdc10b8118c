/**
 * The project's TypeScript CLIs as tests start them: as package.json's scripts do, on Node's type stripping with its
 * compile cache. Both pipes are read from the start, so a child that writes to both never waits on a full one.
 */
import { type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type WatchedOutput, watchOutput } from './child-output.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Node's arguments to run `script` (a path from the repository's root, or absolute) with `args`. */
export function cliArgs(script: string, args: readonly string[] = []): string[] {
  const preload = pathToFileURL(join(ROOT, 'generators/compile-cache.js')).href;
  return ['--import', preload, join(ROOT, script), ...args];
}

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  stdout: WatchedOutput;
  stderr: WatchedOutput;
  /** The exit code, once the child has exited and both pipes are drained. */
  exited: Promise<number | null>;
  /** Signals the child (SIGTERM by default) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startCli(
  script: string,
  args: readonly string[] = [],
  options: SpawnOptionsWithoutStdio = {},
): RunningCli {
  const child = spawn(process.execPath, cliArgs(script, args), { cwd: ROOT, ...options });
  const stdout = watchOutput(child.stdout);
  const stderr = watchOutput(child.stderr);
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return { child, stdout, stderr, exited, stop };
}

/** Runs a CLI to its end: its exit code and everything it wrote to each pipe. */
export async function runCli(script: string, args: readonly string[] = [], options: SpawnOptionsWithoutStdio = {}) {
  const cli = startCli(script, args, options);
  const [code, stdout, stderr] = await Promise.all([cli.exited, cli.stdout.ended, cli.stderr.ended]);
  return { code, stdout, stderr };
}
