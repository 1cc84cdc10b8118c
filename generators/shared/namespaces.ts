/** The namespaces of a document whose methods carry them (`fraud.Subscribe`): the client groups its methods by them,
 * the server its handlers. */
import type { EndpointModel } from '../model/types.ts';
import { commentLines } from './comments.ts';

export interface Namespace {
  property: string;
  docLines: string[];
  members: Array<{ member: string; method: string }>;
}

/** A namespaced document's namespaces, each with its members (the server's grouped handlers use them too). */
export function namespacesOf(endpoint: EndpointModel): Namespace[] {
  const byProperty = new Map<string, Namespace>();
  for (const method of endpoint.methods) {
    if (!method.namespace) continue;
    const { property, member } = method.namespace;
    let namespace = byProperty.get(property);
    if (!namespace) {
      namespace = {
        property,
        docLines: commentLines([`The \`${method.service}.*\` methods, each as the client method it names.`]),
        members: [],
      };
      byProperty.set(property, namespace);
    }
    namespace.members.push({ member, method: method.shortName });
  }
  return [...byProperty.values()];
}
