/**
 * The spec the mock answers from: the documents embedded in the generated server package (the very documents its
 * endpoints serve with `rpc.discover`), turned into the toolkit's model. Methods are filtered by node version here.
 */
import { createRequire, getCompileCacheDir } from 'node:module';
import { join, resolve } from 'node:path';
import { readdirSync } from 'node:fs';
import * as server from '../generated/server/dist/index.js';
import type { EndpointModel, SpecModel } from '../generators/model/types.ts';
import { cachedModel, importClosure } from './model-cache.ts';
import { prebuiltModel } from './package/prebuilt-model.ts';

/** The endpoints of the server package by endpoint name: their document, factory, method table, path and aliases. */
export const ENDPOINTS = server.ENDPOINTS;

export type EndpointName = keyof typeof ENDPOINTS;

const SERVER = resolve(import.meta.dirname, '../generated/server/dist');

/** What the model is made of: the server package's index and documents, and the code that builds it (here too). */
function modelSources(): string[] {
  const documents = join(SERVER, 'documents');
  return [
    join(SERVER, 'index.js'),
    ...readdirSync(documents)
      .sort()
      .map((file) => join(documents, file)),
    ...importClosure(resolve(import.meta.dirname, '../generators/model/build.ts')),
    resolve(import.meta.dirname, 'spec.ts'),
  ];
}

function build(): SpecModel {
  // Required only when no stored model serves: the model's builder is a tenth of the modules a start would load.
  const { buildModel }: typeof import('../generators/model/build.ts') = createRequire(import.meta.url)(
    '../generators/model/build.ts',
  );
  const model = buildModel(
    Object.entries(ENDPOINTS).map(([name, { document }]) => ({
      name,
      file: `${name}.json`,
      document: structuredClone(document) as Record<string, unknown>,
      sources: [{ bundled: '', file: `${name}.json`, pointer: '' }],
    })),
  );
  // The document to publish is the generators' (the mock's rpc.discover serves the server package's): half of the
  // stored model, which each start reads, so not kept.
  for (const endpoint of model.endpoints) endpoint.published = {};
  return model;
}

let model: SpecModel | undefined;

/**
 * The packaged mock's prebuilt model; from source, the one a previous start left in Node's compile-cache folder
 * (when the npm scripts turned that cache on: generators/compile-cache.js), or a fresh one.
 */
export function mockModel(): SpecModel {
  model ??= prebuiltModel() ?? storedOrBuilt();
  return model;
}

function storedOrBuilt(): SpecModel {
  const cacheDir = getCompileCacheDir();
  return cacheDir ? cachedModel(cacheDir, modelSources, build) : build();
}

export function endpointModel(name: EndpointName): EndpointModel {
  const endpoint = mockModel().endpoints.find((e) => e.name === name);
  if (!endpoint) throw new Error(`the generated server has no endpoint ${name}`);
  return endpoint;
}
