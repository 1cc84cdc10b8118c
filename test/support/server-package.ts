/** A server package generated from a spec folder, written to `out` with its dependencies linked, and imported. */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutput } from '../../generators/emit/output.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

export async function importServerPackage<T>(spec: string, out: string, tag: string): Promise<T> {
  const files = await renderArtifacts(loadModel(spec), { artifacts: ['server'] });
  writeOutput(
    out,
    files.map((file) => ({ ...file, path: file.path.replace(/^server\//, '') })),
    tag,
  );
  mkdirSync(join(out, 'node_modules/@noble'), { recursive: true });
  for (const name of ['ajv', 'ajv-formats', '@noble/hashes', 're2js'])
    symlinkSync(join(ROOT, 'node_modules', name), join(out, 'node_modules', name));
  return (await import(join(out, 'dist/index.js'))) as T;
}
