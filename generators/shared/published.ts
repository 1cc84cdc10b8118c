/**
 * The published spec, which the openrpc artifact writes, the server embeds for `rpc.discover` and the docs link to:
 * one self-contained OpenRPC document per endpoint, valid against the OpenRPC meta-schema. It is the model's
 * `published` document (the bundle as authored, without the toolkit's `x-error-name`), with each method's
 * `x-docs-discrepancies` also written into its description, so plain OpenRPC tools, which ignore `x-` fields, still
 * tell readers where the prose docs differ from the node.
 */
import { discrepancyNote } from './comments.ts';
import { type GeneratedFile, jsonFile } from '../emit/files.ts';
import type { EndpointModel, JsonSchema, SpecModel } from '../model/types.ts';

export function publishedDocument(endpoint: EndpointModel): JsonSchema {
  const document = structuredClone(endpoint.published);
  const methods = document.methods as JsonSchema[];
  endpoint.methods.forEach((method, i) => {
    const note = discrepancyNote(method);
    if (!note) return;
    methods[i]!.description = method.description ? `${method.description}\n\n${note}` : note;
  });
  return document;
}

/** Where an endpoint's published document goes, below the output folder (and below the docs site). */
export const publishedPath = (endpoint: EndpointModel): string => `openrpc/${endpoint.name}.json`;

/** Every endpoint's published document, at `publishedPath` below `folder` (the openrpc artifact's, or the docs'). */
export function publishedFiles(model: SpecModel, folder = ''): GeneratedFile[] {
  const prefix = folder ? `${folder}/` : '';
  return model.endpoints.map((endpoint) => jsonFile(prefix + publishedPath(endpoint), publishedDocument(endpoint)));
}
