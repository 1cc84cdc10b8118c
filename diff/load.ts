/** The two sides of `npm run diff`: a spec folder, one endpoint document, or bundled documents (as published). */
import { existsSync } from 'node:fs';
import { bundleDocument } from '../generators/load/bundle.ts';
import { loadSpec } from '../generators/load/index.ts';
import { readJsonFile } from '../generators/load/read.ts';
import { buildModel } from '../generators/model/build.ts';
import { specFiles } from '../generators/load/spec-files.ts';
import type { SpecModel } from '../generators/model/types.ts';

const hasInlineMethods = (document: { methods?: unknown }) =>
  Array.isArray(document.methods) &&
  document.methods.every((m) => m !== null && typeof m === 'object' && !('$ref' in m));

/**
 * A model of the spec at `path`. Hand-written documents go through the loader (bundled and checked). Documents whose
 * methods are inline (a published bundle, or a foreign spec written as one document) are only bundled, so their `$ref`s
 * into other files are followed but a published revision still compares under newer project rules.
 */
export function loadRevision(path: string): SpecModel {
  if (!existsSync(path)) throw new Error(`${path} does not exist`);
  // The file itself, or the spec documents directly in the folder.
  const files = specFiles(path);
  const documents = files.map((file) => readJsonFile(file) as Record<string, unknown>);
  if (documents.every(hasInlineMethods)) return buildModel(files.map((file) => bundleDocument(file)));
  return buildModel(loadSpec(files));
}
