/**
 * The spec the mock answers from: the documents embedded in the generated server packages (the very documents their
 * endpoints serve with `rpc.discover`), turned into the toolkit's model. The mock reads the documents nowhere else.
 */
import { createRequire, getCompileCacheDir } from 'node:module';
import { join, resolve } from 'node:path';
import { readdirSync } from 'node:fs';
import * as server from '../generated/server/dist/index.js';
import { compileSteps } from '../generated/server/dist/runtime/ajv.js';
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

/** An embedded document as the loader would hand it to the model builder. */
const bundled = (name: string, document: object) => ({
  name,
  file: `${name}.json`,
  document: structuredClone(document) as Record<string, unknown>,
  sources: [{ bundled: '', file: `${name}.json`, pointer: '' }],
});

function build(): SpecModel {
  // Required only when no stored model serves: the model's builder is a tenth of the modules a start would load.
  const { buildModel }: typeof import('../generators/model/build.ts') = createRequire(import.meta.url)(
    '../generators/model/build.ts',
  );
  const model = buildModel(Object.entries(ENDPOINTS).map(([name, { document }]) => bundled(name, document)));
  // The document to publish is the generators' (the mock's rpc.discover serves the server package's): half of the
  // stored model, which each start reads, so not kept.
  for (const endpoint of model.endpoints) endpoint.published = {};
  return model;
}

let cChain: Promise<SpecModel> | undefined;

/**
 * The C-Chain's EVM API (the c-chain server package's document) as the toolkit's model, built once, on the first
 * C-Chain call that needs it (./cchain/params.ts): a node that never serves C never pays for it.
 */
export function cChainModel(): Promise<SpecModel> {
  cChain ??= Promise.all([
    import('../generated/c-chain/server/dist/index.js'),
    import('../generators/model/build.ts'),
  ]).then(([{ cChainRpcDocument }, { buildModel }]) => buildModel([bundled('c-chain-rpc', cChainRpcDocument)]));
  return cChain;
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

/**
 * The params validators of `name`'s methods, one step each, for the node to compile while idle (../when-idle.ts):
 * the server package keeps them by the document it embeds, which the mock reads nowhere but here.
 */
export const validatorSteps = (name: EndpointName): Array<() => void> => compileSteps(ENDPOINTS[name].document);

export function endpointModel(name: EndpointName): EndpointModel {
  const endpoint = mockModel().endpoints.find((e) => e.name === name);
  if (!endpoint) throw new Error(`the generated server has no endpoint ${name}`);
  return endpoint;
}
