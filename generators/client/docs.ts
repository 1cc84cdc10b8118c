/** The documentation comments of the generated client: what each method does, may throw, and what replaces it. */
import type { EndpointModel, Json, MethodModel, SpecModel } from '../model/types.ts';
import { lifecycle } from '../model/versions.ts';
import { commentLines, deprecation, discrepancyNote } from '../shared/comments.ts';

export function methodComment(model: SpecModel, endpoint: EndpointModel, method: MethodModel): string[] {
  const paragraphs = [method.summary, method.description, discrepancyNote(method)];
  paragraphs.push(
    [`JSON-RPC method \`${method.name}\` at \`${urlOf(endpoint, method)}\`.`, lifecycle(method)]
      .filter(Boolean)
      .join(' '),
  );
  const tags: string[] = [];
  if (method.params.length > 0)
    tags.push(
      `@param params - The params, sent ${method.paramStructure === 'by-name' ? 'by name' : 'by position'} ` +
        `({@link ${method.typeNames.params}}).`,
    );
  tags.push('@param options - Abort signal and timeout of this call.');
  const returns = method.result
    ? oneLine(method.result.description) || `The result ({@link ${method.typeNames.result}}).`
    : 'Nothing: the call is a notification, settled once the server has taken it.';
  tags.push(`@returns ${returns}`);
  for (const error of method.errors)
    tags.push(`@throws {@link JsonRpcError} ${error.code}: ${oneLine(error.message)}${dataNote(error.data)}`);
  if (method.deprecated) tags.push(`@deprecated ${deprecation(model, method)}`);
  return commentLines([...paragraphs, tags.join('\n')]);
}

const urlOf = (endpoint: EndpointModel, method: MethodModel) =>
  method.server ? `${method.server.baseUrl}${method.server.pathTemplate}` : endpoint.urlTemplate;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Longest `data` value written out as JSON in a comment; a longer one would be a line no comment can wrap. */
const MAX_INLINE_DATA = 60;

/**
 * What an error's `data` says, for its `@throws`: the field (execution-apis, Starknet) often writes a schema of the
 * data there rather than a value, and then its title or description says what the data is; a short value is shown as
 * JSON; a long one is left to the spec, as its JSON would run past the comment's width.
 */
function dataNote(data: Json | undefined): string {
  if (data === undefined) return '';
  if (isObject(data) && ['$ref', 'type', 'const', 'properties', 'oneOf', 'anyOf'].some((key) => key in data)) {
    if ('const' in data) return dataNote(data.const);
    const label = [data.title, data.description].find((text) => typeof text === 'string' && text.trim() !== '');
    if (typeof label === 'string') return ` (data: ${oneLine(label)})`;
  }
  const json = JSON.stringify(data);
  return json.length <= MAX_INLINE_DATA ? ` (data: \`${json}\`)` : ' (with `data`, as the spec documents it)';
}

const isObject = (value: Json): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
