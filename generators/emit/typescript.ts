/**
 * The compiler thread (typescript-worker.js): json-schema-to-typescript and the TypeScript printer, which make the
 * spec's types (types/compile.ts). Loading them is a good part of a generation's cost; on a thread of its own it
 * overlaps with the spec's loading and with the other generators. `startTypeScript()` starts it early.
 */
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
      // The next job starts a fresh thread.
      if (thread === this) thread = undefined;
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the TypeScript compiler thread exited with code ${code}`)));
  }

  run<Output>(job: CompilerJob, input: object): Promise<Output> {
    const id = this.nextId++;
    this.worker.ref();
    return new Promise<Output>((resolve, reject) => {
      this.jobs.set(id, { resolve: resolve as (output: never) => void, reject });
      this.worker.postMessage({ id, job, input });
    });
  }
}

let thread: CompilerThread | undefined;

/** Starts the compiler thread, if not yet running, so that it loads the compilers while other work goes on. */
export function startTypeScript(): void {
  thread ??= new CompilerThread();
}

/** The jobs typescript-worker.js takes. */
export type CompilerJob = 'types';

export function runOnCompilerThread<Output>(job: CompilerJob, input: object): Promise<Output> {
  startTypeScript();
  return thread!.run<Output>(job, input);
}
