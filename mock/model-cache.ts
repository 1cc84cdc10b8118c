/**
 * The spec's model as a file: serialized with node:v8 (which keeps the shared schema objects shared), led by the
 * SHA-256 of the serialization, so that a torn, corrupt or foreign file reads as no model rather than half of one.
 * The packaged mock ships one (model.bin, mock/package/build.ts); `npm run mock` keeps one in Node's compile-cache
 * folder, keyed by the files it was built from, because building it from the documents was most of a start.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { SpecModel } from '../generators/model/types.ts';

const DIGEST_BYTES = 32;
const PREFIX = 'mock-model-';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** The model stored in `file`, or none when it is missing, damaged or not a model. */
export function readModelFile(file: string | URL): SpecModel | undefined {
  try {
    const bytes = readFileSync(file);
    const payload = bytes.subarray(DIGEST_BYTES);
    if (!sha256(payload).equals(bytes.subarray(0, DIGEST_BYTES))) return undefined;
    const model = deserialize(payload) as SpecModel;
    return Array.isArray(model?.endpoints) ? model : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `model` to `file` whole: into a file of its own first, renamed into place, so no reader sees part of it. */
export function writeModelFile(file: string, model: SpecModel): void {
  const payload = serialize(model);
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${randomUUID()}.tmp`;
  writeFileSync(partial, Buffer.concat([sha256(payload), payload]));
  renameSync(partial, file);
}

/**
 * The model `build` makes from the files `sources()` lists, read from `dir` when a run stored it for these very bytes
 * (and this V8's serialization), else built and stored there. A source that cannot be read means no caching.
 */
export function cachedModel(dir: string, sources: () => string[], build: () => SpecModel): SpecModel {
  let file: string;
  try {
    const key = createHash('sha256').update(process.versions.v8);
    for (const source of sources()) key.update(`\0${source}\0`).update(readFileSync(source));
    file = join(dir, `${PREFIX}${key.digest('hex')}.bin`);
  } catch {
    return build();
  }
  const stored = readModelFile(file);
  if (stored) return stored;
  const model = build();
  try {
    writeModelFile(file, model);
    // The models of earlier documents or code: one model is kept, however often they change.
    for (const other of readdirSync(dir))
      if (other.startsWith(PREFIX) && other.endsWith('.bin') && join(dir, other) !== file)
        rmSync(join(dir, other), { force: true });
  } catch {
    // A read-only folder: the next start builds again.
  }
  return model;
}

/** The files `entry` imports by relative path, transitively, and itself: the code whose change a cache must see. */
export function importClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g))
      visit(resolve(dirname(file), specifier!));
  };
  visit(resolve(entry));
  return [...seen];
}
