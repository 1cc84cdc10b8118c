/** The documentation comments of the generated client: what each method does, may throw, and what replaces it. */
import type { EndpointModel, MethodModel, SpecModel } from '../model/types.ts';
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
  for (const error of method.errors) {
    const data = error.data === undefined ? '' : ` (data: \`${JSON.stringify(error.data)}\`)`;
    tags.push(`@throws {@link JsonRpcError} ${error.code}: ${oneLine(error.message)}${data}`);
  }
  if (method.deprecated) tags.push(`@deprecated ${deprecation(model, method)}`);
  return commentLines([...paragraphs, tags.join('\n')]);
}

const urlOf = (endpoint: EndpointModel, method: MethodModel) =>
  method.server ? `${method.server.baseUrl}${method.server.pathTemplate}` : endpoint.urlTemplate;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
