/** The two sides of `npm run diff`: a spec folder, one endpoint document, or bundled documents (as published). */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { loadSpec } from '../generators/load/index.ts';
import { readJsonFile } from '../generators/load/read.ts';
import { buildModel } from '../generators/model/build.ts';
import { specFiles } from '../generators/load/spec-files.ts';
import type { SpecModel } from '../generators/model/types.ts';

const isBundled = (document: { methods?: unknown }) =>
  Array.isArray(document.methods) &&
  document.methods.every((m) => m !== null && typeof m === 'object' && !('$ref' in m));

/**
 * A model of the spec at `path`. Hand-written documents go through the loader (bundled and checked); bundled ones,
 * whose methods are inline, are read as they are, so a published revision compares even under newer project rules.
 */
export function loadRevision(path: string): SpecModel {
  if (!existsSync(path)) throw new Error(`${path} does not exist`);
  // The file itself, or the spec documents directly in the folder.
  const files = specFiles(path);
  const documents = files.map((file) => readJsonFile(file) as Record<string, unknown>);
  if (documents.every(isBundled)) {
    return buildModel(
      files.map((file, i) => ({
        name: basename(file, '.json'),
        file,
        document: documents[i]!,
        sources: [{ bundled: '', file, pointer: '' }],
      })),
    );
  }
  return buildModel(loadSpec(files));
}
