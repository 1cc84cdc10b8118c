/**
 * The spec the mock answers from: the documents embedded in the generated server package (the very documents its
 * endpoints serve with `rpc.discover`), turned into the toolkit's model. Methods are filtered by node version here.
 */
import * as server from '../generated/server/dist/index.js';
import { buildModel } from '../generators/model/build.ts';
import type { EndpointModel, MethodModel, SpecModel } from '../generators/model/types.ts';

/** The endpoints of the server package by endpoint name: their document, factory and method table. */
export const ENDPOINTS = {
  'x-chain': { document: server.xChainDocument, methods: server.xChainMethods, create: server.createXChainEndpoint },
  'x-wallet': { document: server.xWalletDocument, methods: server.xWalletMethods, create: server.createXWalletEndpoint },
  'avm-static': { document: server.avmStaticDocument, methods: server.avmStaticMethods, create: server.createAvmStaticEndpoint },
  'p-chain': { document: server.pChainDocument, methods: server.pChainMethods, create: server.createPChainEndpoint },
  admin: { document: server.adminDocument, methods: server.adminMethods, create: server.createAdminEndpoint },
  keystore: { document: server.keystoreDocument, methods: server.keystoreMethods, create: server.createKeystoreEndpoint },
  info: { document: server.infoDocument, methods: server.infoMethods, create: server.createInfoEndpoint },
  health: { document: server.healthDocument, methods: server.healthMethods, create: server.createHealthEndpoint },
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

let model: SpecModel | undefined;

export function mockModel(): SpecModel {
  model ??= buildModel(
    Object.entries(ENDPOINTS).map(([name, { document }]) => ({ name, file: `${name}.json`, document: structuredClone(document) as Record<string, unknown>, sources: [{ bundled: '', file: `${name}.json`, pointer: '' }] })),
  );
  return model;
}

export function endpointModel(name: EndpointName): EndpointModel {
  const endpoint = mockModel().endpoints.find((e) => e.name === name);
  if (!endpoint) throw new Error(`the generated server has no endpoint ${name}`);
  return endpoint;
}

