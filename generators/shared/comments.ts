/**
 * Text every artifact that documents a method shares (the client's and the server's comments, the published documents),
 * so that they say the same thing in the same words.
 */
import { clientClassName } from '../model/names.ts';
import type { EndpointModel, MethodModel, SpecModel } from '../model/types.ts';
import { docCommentLines } from './escape.ts';

/** The widest text of a comment line: with its indent and ` * `, generated lines stay within 120 columns. */
const COMMENT_WIDTH = 100;

/**
 * Lines of a `/** ... *\/` comment, each ready to follow ` *` (empty, or starting with a space), wrapped at word
 * boundaries within COMMENT_WIDTH; a wrapped list item or tag goes on under its text. Fenced code is kept as written.
 */
export function commentLines(paragraphs: string[]): string[] {
  const text = paragraphs.filter((p) => p.trim()).join('\n\n');
  let fenced = false;
  return docCommentLines(text).flatMap((line) => {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    if (!line.trim()) return [''];
    return fenced || line.trimStart().startsWith('```') ? [` ${line.trimEnd()}`] : wrapped(line.trimEnd());
  });
}

/** `text` with its lines wrapped as commentLines wraps them, for a tool that writes the comment itself. */
export function wrappedText(text: string): string {
  return commentLines([text])
    .map((line) => line.slice(1))
    .join('\n');
}

function wrapped(line: string): string[] {
  const hanging = ' '.repeat(/^\s*(?:[-*] |\d+\. |@\w+ )?/.exec(line)![0].length);
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(/(?<=\S) (?=\S)/)) {
    if (current && current.length + 1 + word.length > COMMENT_WIDTH) {
      lines.push(current);
      current = hanging + word.trimStart();
    } else current = current ? `${current} ${word}` : word;
  }
  lines.push(current);
  return lines.map((text) => ` ${text}`);
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
