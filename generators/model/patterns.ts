/**
 * The regular expressions an endpoint's validators test (`pattern`), for a server that compiles them ahead of its
 * first call (the mock, while idle: mock/when-idle.ts).
 */
import { componentName, isSchema, subschemas } from './schema-walk.ts';
import type { EndpointModel, JsonSchema, SpecModel } from './types.ts';

/**
 * The `pattern`s of the schemas `endpoint`'s methods take and answer, and of the shared schemas those refer to at any
 * depth, each once.
 */
export function patternsOf(model: SpecModel, endpoint: EndpointModel): string[] {
  const patterns = new Set<string>();
  const seen = new Set<JsonSchema>();
  const pending: JsonSchema[] = endpoint.methods.flatMap((method) => [
    ...method.params.map((param) => param.schema),
    ...(method.result ? [method.result.schema] : []),
  ]);
  while (pending.length > 0) {
    const schema = pending.pop()!;
    if (seen.has(schema)) continue;
    seen.add(schema);
    if (typeof schema.pattern === 'string') patterns.add(schema.pattern);
    const shared = componentName(schema.$ref);
    const target = shared === undefined ? undefined : model.schemas[shared];
    if (isSchema(target)) pending.push(target);
    for (const { schema: child } of subschemas(schema)) pending.push(child);
  }
  return [...patterns];
}
