/** Reads and checks the proxy's spec off the main thread (./proxy-spec.ts): the model, or the loader's words. */
import { parentPort, workerData } from 'node:worker_threads';
import { TOOLKIT_SPEC, loadSpecModel } from './spec.ts';

const { spec } = workerData as { spec?: string[] };
try {
  parentPort!.postMessage({ model: loadSpecModel(spec && spec.length > 0 ? spec : TOOLKIT_SPEC) });
} catch (error) {
  parentPort!.postMessage({ problem: (error as Error).message });
}
