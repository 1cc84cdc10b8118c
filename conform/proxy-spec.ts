/**
 * The proxy's spec, loaded after it has begun to listen: reading and checking the toolkit's documents takes seconds
 * (the loader's meta-schema and rule checks, then the generator's modules), and a proxy forwards without it. The
 * documents are read and checked on a worker thread, so forwarding on the main one goes on meanwhile; the main thread
 * then builds the validator from the model (the generated server's validators compile each method on its first use).
 */
import { Worker } from 'node:worker_threads';
import type { SpecModel } from '../generators/model/types.ts';
import type { SpecValidator } from './validate.ts';

type Loaded = { model: SpecModel } | { problem: string };

/** The model of `spec` (default: the toolkit's openrpc/), read on a worker thread; rejects with the loader's words. */
function loadModelAside(spec: string[] | undefined): Promise<SpecModel> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./proxy-spec-worker.ts', import.meta.url), { workerData: { spec } });
    worker.once('message', (loaded: Loaded) => {
      if ('model' in loaded) resolve(loaded.model);
      else reject(new Error(loaded.problem));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the spec loader stopped (exit code ${code})`)));
  });
}

/** The validator of the spec given with `--spec` (or the toolkit's), as conform's loadValidator makes it. */
export async function loadValidatorAside(spec: string[] | undefined): Promise<SpecValidator> {
  const [model, { validatorOf }] = await Promise.all([loadModelAside(spec), import('./validate.ts')]);
  return validatorOf(model, !spec || spec.length === 0);
}
