/**
 * The compiler threads (typescript-worker.js): the TypeScript compiler (the toolkit's `typescript`) and
 * json-schema-to-typescript, which make the spec's types (types/compile.ts) and the declaration files a generated
 * package ships (javascript.ts). Loading them and compiling are most of a generation's cost; on threads of their own
 * they overlap with the spec's loading and with the other generators. `startTypeScript()` starts them early; results
 * never depend on which thread did the work.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

interface Job {
  resolve: (output: never) => void;
  reject: (error: Error) => void;
}

class CompilerThread {
  // Plain JavaScript: the thread needs none of the process's loader flags (tsx's would cost it a second loader start).
  // Its young objects are a compile's short-lived nodes: a 6 MB young generation (V8 grows it to 48 MB and keeps it)
  // holds them, and a generation's peak memory is some 25 MB lower for it at no measurable CPU cost.
  private readonly worker = new Worker(new URL('./typescript-worker.js', import.meta.url), {
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: 6 },
  });
  private readonly jobs = new Map<number, Job>();
  private nextId = 0;
  /** Characters of source queued here: new work goes to the least loaded thread. */
  queued = 0;

  constructor() {
    // An idle thread must not keep the process alive; a busy one must (the main thread may be waiting on nothing else).
    this.worker.unref();
    this.worker.on('message', ({ id, output, error }: { id: number; output?: never; error?: string }) => {
      const job = this.jobs.get(id)!;
      this.jobs.delete(id);
      if (this.jobs.size === 0) this.worker.unref();
      if (error === undefined) job.resolve(output!);
      else job.reject(new Error(error));
    });
    const fail = (error: Error) => {
      for (const job of this.jobs.values()) job.reject(error);
      this.jobs.clear();
      // The next job starts a fresh set of threads.
      if (threads?.includes(this)) threads = undefined;
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the TypeScript compiler thread exited with code ${code}`)));
  }

  run<Output>(job: CompilerJob, input: object, size: number): Promise<Output> {
    const id = this.nextId++;
    this.queued += size;
    this.worker.ref();
    return new Promise<Output>((resolve, reject) => {
      this.jobs.set(id, { resolve: resolve as (output: never) => void, reject });
      this.worker.postMessage({ id, job, input });
    }).finally(() => {
      this.queued -= size;
    });
  }
}

let threads: CompilerThread[] | undefined;

/** Starts the compiler threads, if not yet running, so that they load the compiler while other work goes on. */
export function startTypeScript(): void {
  // One thread per spare core, at most two: the main thread keeps a core for the spec and the templates.
  threads ??= Array.from({ length: Math.max(1, Math.min(2, availableParallelism() - 1)) }, () => new CompilerThread());
}

/** The jobs typescript-worker.js takes. */
export type CompilerJob = 'declarations' | 'types';

/** Runs a job on the least loaded compiler thread; `size` (characters of input) weighs it. */
export function runOnCompilerThread<Output>(job: CompilerJob, input: object, size: number): Promise<Output> {
  startTypeScript();
  const thread = threads!.reduce((least, candidate) => (candidate.queued < least.queued ? candidate : least));
  return thread.run<Output>(job, input, size);
}
