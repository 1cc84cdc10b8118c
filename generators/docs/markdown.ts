/**
 * The Markdown the spec's descriptions use, and nothing more: paragraphs, `-`/`*`/`1.` lists, fenced code, inline
 * code, bold, emphasis and links. Raw HTML in a description is text, never markup; links only keep web, mail and
 * relative page targets, so a `javascript:` URL in the spec stays inert text.
 * Method names the spec mentions (`platform.getUTXOs`) become links to their sections.
 */
import { EMPTY_HTML, type Html, html, joinHtml } from './html.ts';

/** Where a method's section lives, or undefined for a name that is not a method of the spec. */
export type MethodLinker = (methodName: string) => string | undefined;

/** Web and mail links, and pages of this site or a sibling one (`../c-chain/docs/index.html`): never a scheme. */
const SAFE_URL = /^(https?:\/\/|mailto:|#|(\.\.\/)*([a-z0-9-]+\/)*[a-z0-9-]+\.html(#|$))/i;
const METHOD_NAME = /\b[a-z][a-zA-Z0-9]*\.[a-z][a-zA-Z0-9]*\b/g;
// A link's text stops at the next `[` and its URL at the next `(`, so each `[` is scanned past at most up to the next
// one: text of many unclosed `[` or `[a](` renders in linear time (scanning to the end for each took hours).
const INLINE = /`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|\[([^\][]+)\]\(([^()\s]+)\)/g;

export function renderInline(text: string, linker?: MethodLinker): Html {
  const parts: Html[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    parts.push(plainText(text.slice(last, match.index), linker));
    const [, code, strong, em, linkText, url] = match;
    if (code !== undefined) {
      const href = linker?.(code);
      parts.push(href ? html`<a href="${href}"><code>${code}</code></a>` : html`<code>${code}</code>`);
    } else if (strong !== undefined) parts.push(html`<strong>${renderInline(strong, linker)}</strong>`);
    else if (em !== undefined) parts.push(html`<em>${renderInline(em, linker)}</em>`);
    else if (SAFE_URL.test(url!)) parts.push(html`<a href="${url!}">${renderInline(linkText!)}</a>`);
    else parts.push(html`${renderInline(linkText!, linker)} (${url!})`);
    last = match.index + match[0].length;
  }
  parts.push(plainText(text.slice(last), linker));
  return joinHtml(parts);
}

function plainText(text: string, linker?: MethodLinker): Html {
  if (!linker) return html`${text}`;
  const parts: Html[] = [];
  let last = 0;
  for (const match of text.matchAll(METHOD_NAME)) {
    const href = linker(match[0]);
    if (!href) continue;
    parts.push(html`${text.slice(last, match.index)}<a href="${href}">${match[0]}</a>`);
    last = match.index + match[0].length;
  }
  parts.push(html`${text.slice(last)}`);
  return joinHtml(parts);
}

type Block =
  | { kind: 'p'; lines: string[] }
  | { kind: 'ul' | 'ol'; items: string[] }
  | { kind: 'code'; lines: string[] };

const BULLET = /^\s*[-*]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;

function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*```/.test(line)) {
      const code: string[] = [];
      while (++i < lines.length && !/^\s*```/.test(lines[i]!)) code.push(lines[i]!);
      blocks.push({ kind: 'code', lines: code });
      current = undefined;
      continue;
    }
    if (!line.trim()) {
      current = undefined;
      continue;
    }
    const bullet = BULLET.exec(line) ?? undefined;
    const numbered = bullet ? undefined : (NUMBERED.exec(line) ?? undefined);
    const listKind = bullet ? 'ul' : numbered ? 'ol' : undefined;
    if (listKind) {
      if (current?.kind !== listKind) blocks.push((current = { kind: listKind, items: [] }));
      current.items.push((bullet ?? numbered)![1]!);
    } else if (current?.kind === 'ul' || current?.kind === 'ol') {
      // A line under a list item continues that item.
      current.items[current.items.length - 1] += ` ${line.trim()}`;
    } else if (current?.kind === 'p') current.lines.push(line.trim());
    else blocks.push((current = { kind: 'p', lines: [line.trim()] }));
  }
  return blocks;
}

/** Block-level Markdown to HTML; an empty description gives empty HTML. */
export function renderMarkdown(source: string, linker?: MethodLinker): Html {
  if (!source.trim()) return EMPTY_HTML;
  return joinHtml(
    parseBlocks(source).map((block) => {
      if (block.kind === 'p') return html`<p>${renderInline(block.lines.join(' '), linker)}</p>`;
      if (block.kind === 'code') return html`<pre class="code"><code>${block.lines.join('\n')}</code></pre>`;
      const items = block.items.map((item) => html`<li>${renderInline(item, linker)}</li>`);
      return block.kind === 'ul' ? html`<ul>${items}</ul>` : html`<ol>${items}</ol>`;
    }),
    '\n',
  );
}
