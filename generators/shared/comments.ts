/**
 * Text every artifact that documents a method shares (the client's and the server's comments, the published documents),
 * so that they say the same thing in the same words.
 */
import { clientClassName } from '../model/names.ts';
import type { EndpointModel, MethodModel, SpecModel } from '../model/types.ts';
import { docCommentLines } from './escape.ts';

/** Lines of a `/** ... *\/` comment, each ready to follow ` *` (empty, or starting with a space). */
export function commentLines(paragraphs: string[]): string[] {
  const text = paragraphs.filter((p) => p.trim()).join('\n\n');
  return docCommentLines(text).map((line) => (line.trim() ? ` ${line.trimEnd()}` : ''));
}

/**
 * The method's `x-docs-discrepancies` as a Markdown paragraph, for readers of the published documents and of the
 * client's comments alike. Empty when there are none.
 */
export function discrepancyNote(method: MethodModel): string {
  if (method.discrepancies.length === 0) return '';
  return ['**Where the prose docs differ from the node:**', ...method.discrepancies.map((d) => `- ${d}`)].join('\n');
}

/**
 * `@deprecated` text: since when, and what to use instead; with `link`, also the client method when the replacement
 * is one (the server package has no client to link to).
 */
export function deprecation(model: SpecModel, method: MethodModel, { link = true } = {}): string {
  const since = method.versions.deprecatedSince ? `Since AvalancheGo ${method.versions.deprecatedSince}.` : '';
  const replacement = method.replacement?.trim();
  if (!replacement) return since || 'Deprecated.';
  const target = findMethod(model, replacement);
  const linked =
    target && link ? ` ({@link ${clientClassName(target.endpoint.typeName)}.${target.method.shortName}})` : '';
  const use = target ? `Use \`${replacement}\` instead${linked}.` : `Replacement: ${replacement}`;
  return [since, use].filter(Boolean).join(' ');
}

function findMethod(model: SpecModel, name: string): { endpoint: EndpointModel; method: MethodModel } | undefined {
  for (const endpoint of model.endpoints) {
    const method = endpoint.methods.find((m) => m.name === name);
    if (method) return { endpoint, method };
  }
  return undefined;
}
