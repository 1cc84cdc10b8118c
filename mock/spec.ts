/**
 * The spec the mock answers from: the documents embedded in the generated server package (the very documents its
 * endpoints serve with `rpc.discover`), turned into the toolkit's model. Methods are filtered by node version here.
 */
import * as server from '../generated/server/dist/index.js';
import { buildModel } from '../generators/model/build.ts';
import type { EndpointModel, SpecModel } from '../generators/model/types.ts';
import { prebuiltModel } from './package/prebuilt-model.ts';

/** The endpoints of the server package by endpoint name: their document, factory, method table, path and aliases. */
export const ENDPOINTS = server.ENDPOINTS;

export type EndpointName = keyof typeof ENDPOINTS;

let model: SpecModel | undefined;

export function mockModel(): SpecModel {
  model ??=
    prebuiltModel() ??
    buildModel(
      Object.entries(ENDPOINTS).map(([name, { document }]) => ({
        name,
        file: `${name}.json`,
        document: structuredClone(document) as Record<string, unknown>,
        sources: [{ bundled: '', file: `${name}.json`, pointer: '' }],
      })),
    );
  return model;
}

export function endpointModel(name: EndpointName): EndpointModel {
  const endpoint = mockModel().endpoints.find((e) => e.name === name);
  if (!endpoint) throw new Error(`the generated server has no endpoint ${name}`);
  return endpoint;
}
