/**
 * The second engine's child processes (./detached-call.ts): each spawned with a cache folder of its own
 * (/tmp/avalanche-mock-call-<pid>-*), killed at its deadline or when the node closes (`stopDetached`), its folder
 * removed once it has exited; the folders of a node process that died meanwhile go at the next one's first run.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CChain } from './evm.ts';

const FOLDER = 'avalanche-mock-call-';

/** Removes the folders of runs whose node process is gone (SIGKILLed, or exited while a run was on). */
async function sweepFolders(): Promise<void> {
  const names = await readdir(tmpdir()).catch(() => []);
  for (const name of names) {
    const pid = Number(/^avalanche-mock-call-(\d+)-/.exec(name)?.[1]);
    if (pid && !alive(pid)) await rm(join(tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Each chain's running calls, and the signal that kills their children when the node closes. */
const running = new WeakMap<CChain, { stop: AbortController; runs: Set<Promise<unknown>> }>();

function runsOf(chain: CChain) {
  let entry = running.get(chain);
  if (!entry) running.set(chain, (entry = { stop: new AbortController(), runs: new Set() }));
  return entry;
}

/**
 * Runs `requests` on an engine of `config` (given its cache folder, removed once the child has exited) in a child
 * process of `chain`'s, which `stopDetached` kills: its answer, its failure, or 'late' at `deadline`.
 */
export function inChild(
  chain: CChain,
  config: (cacheDir: string) => object,
  requests: string[],
  deadline: number,
): Promise<{ answer?: string; failed?: string } | 'late'> {
  const { stop, runs } = runsOf(chain);
  if (stop.signal.aborted) return Promise.resolve({ failed: 'the mock node is closing' });
  const run = (async () => {
    swept ??= sweepFolders();
    await swept;
    const cacheDir = await mkdtemp(join(tmpdir(), `${FOLDER}${process.pid}-`));
    try {
      return await spawned(config(cacheDir), requests, deadline, stop.signal);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  })();
  runs.add(run);
  void run.finally(() => runs.delete(run)).catch(() => undefined);
  return run;
}

let swept: Promise<void> | undefined;

/** Kills `chain`'s children, refuses new ones, and settles once every run has ended and removed its folder. */
export async function stopDetached(chain: CChain): Promise<void> {
  const entry = runsOf(chain);
  entry.stop.abort();
  await Promise.allSettled([...entry.runs]);
}

/**
 * The child's program (plain JavaScript, run by `node -e`, so that the bundled package needs no file of its own): one
 * engine with the config it is sent, the requests run in order, the last one's answer sent back; it ends with the
 * node's process (its IPC channel closed) whatever its engine is running.
 */
const CHILD = `process.once('disconnect', () => process.exit(1));
process.once('message', async ({ edrPath, config, requests }) => {
  try {
    const edr = require(edrPath);
    const context = new edr.EdrContext();
    await context.registerProviderFactory(edr.L1_CHAIN_TYPE, edr.l1ProviderFactory());
    const logger = { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} };
    const provider = await context.createProvider(edr.L1_CHAIN_TYPE, config, logger,
      { subscriptionCallback: () => {} }, new edr.ContractDecoder());
    let answer;
    for (const request of requests) {
      const response = await provider.handleRequest(request);
      answer = typeof response.data === 'string' ? response.data : JSON.stringify(response.data);
    }
    process.send({ answer }, () => process.exit(0));
  } catch (error) {
    process.send({ failed: String(error && error.message) }, () => process.exit(1));
  }
});`;

/** The child's answer, or 'late' at `deadline` (the child then killed); settles once it has exited. */
function spawned(
  config: object,
  requests: string[],
  deadline: number,
  signal: AbortSignal,
): Promise<{ answer?: string; failed?: string } | 'late'> {
  const child = spawn(process.execPath, ['-e', CHILD], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    signal,
    killSignal: 'SIGKILL',
    serialization: 'advanced',
    // EDR's mimalloc commits less memory so (../shared/edr.ts).
    env: { ...process.env, MIMALLOC_ARENA_EAGER_COMMIT: process.env.MIMALLOC_ARENA_EAGER_COMMIT ?? '0' },
  });
  // Settles once the child has exited, so that its folder can go; its answer or the deadline decide the outcome.
  return new Promise((resolve) => {
    let outcome: { answer?: string; failed?: string } | 'late' | undefined;
    const timer = setTimeout(
      () => {
        outcome ??= 'late';
        child.kill('SIGKILL');
      },
      Math.max(0, deadline - Date.now()),
    );
    timer.unref();
    child.once('message', (message) => {
      outcome ??= message as { answer?: string; failed?: string };
    });
    child.once('close', (code, exit) => {
      clearTimeout(timer);
      resolve(outcome ?? { failed: `the second engine exited (${exit ?? code})` });
    });
    child.once('error', (error) => {
      outcome ??= { failed: error.message };
      if (child.pid === undefined) child.emit('close', null, null);
    });
    if (child.pid !== undefined)
      child.send({ edrPath: createRequire(import.meta.url).resolve('@nomicfoundation/edr'), config, requests });
  });
}
