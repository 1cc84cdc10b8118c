/**
 * The document the model hands on for publishing only (the openrpc artifact, `rpc.discover`, the docs' download):
 * the bundle as authored, without the toolkit's error names: `x-error-name` on errors, which plain OpenRPC tools do not
 * know (the loader admits it where the OpenRPC meta-schema admits no extension), and `x-renamed-errors`. Every fact in it is a field of the model:
 * past the model, code reads those fields, and only generators/shared/published.ts reads this document.
 */
import type { JsonSchema } from './types.ts';

export function publishable(document: JsonSchema): JsonSchema {
  const copy = structuredClone(document);
  const components = copy.components as { errors?: Record<string, JsonSchema> } | undefined;
  const methods = (copy.methods ?? []) as JsonSchema[];
  const errors = [
    ...Object.values(components?.errors ?? {}),
    ...methods.flatMap((method) => (method.errors ?? []) as JsonSchema[]),
  ];
  for (const error of errors) delete error['x-error-name'];
  delete copy['x-renamed-errors'];
  return copy;
}
