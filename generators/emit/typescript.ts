/**
 * TypeScript output, shaped by the TypeScript compiler itself (the copy ts-morph ships): printing generated
 * declarations in one style, and the JavaScript plus declaration files a generated package ships. All in memory and
 * without type checking (a test type-checks generated/ for real).
 *
 * The compiler runs on worker threads (typescript-worker.js): loading it and transpiling a megabyte of generated
 * source are most of a generation's cost, and on threads of their own they overlap with the spec's loading and with
 * the other generators. `startTypeScript()` starts them early; results never depend on which thread did the work.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { isHeaderComment } from './header.ts';

interface Job {
  resolve: (output: never) => void;
  reject: (error: Error) => void;
}

class CompilerThread {
  private readonly worker = new Worker(new URL('./typescript-worker.js', import.meta.url));
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

  run<Output>(job: 'print' | 'transpile', input: object, size: number): Promise<Output> {
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

function run<Output>(job: 'print' | 'transpile', input: object, size: number): Promise<Output> {
  startTypeScript();
  const thread = threads!.reduce((least, candidate) => (candidate.queued < least.queued ? candidate : least));
  return thread.run<Output>(job, input, size);
}

/**
 * Declarations in the project's style, printed by the TypeScript printer: two-space indent, semicolons, no needless
 * parentheses, one blank line between top-level declarations, comments kept.
 */
export function printTypeScript(text: string, fileName = 'print.ts'): Promise<string> {
  return run<string>('print', { text, fileName }, text.length);
}

export interface EmittedFile {
  path: string;
  contents: string;
}

export interface TypeScriptSource {
  path: string;
  contents: string;
  /** Only type declarations: its JavaScript is an empty module and its declarations are the source itself. */
  typesOnly?: boolean;
}

/**
 * ESM JavaScript and `.d.ts` for each TypeScript source, file by file: `src/x.ts` -> `dist/x.js` and `dist/x.d.ts`,
 * each under the header line of its source unless `header` says otherwise.
 * Each file is transpiled on its own (no type checking), which requires the sources to be isolatedDeclarations-clean:
 * the generated sources are, and a test type-checks them for real.
 */
export async function emitJavaScript(sources: TypeScriptSource[], header: (path: string) => string = headerOfSource(sources)): Promise<EmittedFile[]> {
  const outputs = await Promise.all(
    sources.map((source) =>
      source.typesOnly ? { js: '', dts: source.contents } : run<{ js: string; dts: string }>('transpile', { path: source.path, contents: source.contents }, source.contents.length),
    ),
  );
  return sources.flatMap((source, i) => {
    const base = source.path.replace(/^src\//, 'dist/').replace(/\.ts$/, '');
    return [
      { path: `${base}.js`, contents: withHeader(outputs[i]!.js, header(`${base}.js`)) },
      { path: `${base}.d.ts`, contents: withHeader(outputs[i]!.dts, header(`${base}.d.ts`)) },
    ];
  });
}

/** By default each emitted file carries the header line of the source it comes from. */
function headerOfSource(sources: TypeScriptSource[]): (path: string) => string {
  const headers = new Map(sources.map((source) => [source.path.replace(/^src\/|\.ts$/g, ''), source.contents.split('\n', 1)[0]!]));
  return (path) => {
    const header = headers.get(path.replace(/^dist\/|\.d\.ts$|\.js$/g, ''));
    if (header === undefined || !isHeaderComment(header)) throw new Error(`the source of ${path} does not start with a header line`);
    return header;
  };
}

/** The emitted file under exactly one header line: the compiler keeps the source's own header on some outputs only. */
function withHeader(text: string, header: string): string {
  const lines = text.split('\n');
  const body = (isHeaderComment(lines[0] ?? '') ? lines.slice(1) : lines).join('\n').trim();
  return `${header}\n${body || 'export {};'}\n`;
}
