/**
 * Spec text is untrusted: any string of an OpenRPC document (a title, a description, a name, an enum value, an example,
 * a server URL, an extension's value) may hold `*\/`, `${`, a backtick, `</script>`, a line terminator or a
 * `javascript:` link. It reaches generated code, comments, pages and READMEs only through the one function here for
 * the context it lands in, so that it stays data: it shows as written and never becomes code or markup.
 */

/** `\u2028`-style escapes of the characters no generated text should carry raw: controls and line separators. */
const unicodeEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

const JS_STRING_SPECIALS: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * A JavaScript (and TypeScript) string literal in single quotes. Line terminators (U+2028 and U+2029 too) and other
 * controls are escaped, so the literal stays on its line even where it is pasted into a comment or an older parser.
 */
export function jsString(text: string): string {
  return `'${text.replace(/[\\'\n\r\t\u0000-\u001f\u007f\u2028\u2029]/g, (c) => JS_STRING_SPECIALS[c] ?? unicodeEscape(c))}'`;
}

/** A name that JavaScript takes bare (ASCII only, which is all the generated code writes bare). */
export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * An object literal's key: bare when it is an identifier, else a string literal. `__proto__` is computed, because as a
 * plain or quoted key it would set the object's prototype instead of making a property.
 */
export function propertyKey(key: string): string {
  if (key === '__proto__') return `[${jsString(key)}]`;
  return IDENTIFIER.test(key) ? key : jsString(key);
}

/** A JSON scalar (a key, a string, a number...) as JavaScript: JSON, line separators escaped for older tools. */
export function jsonScalar(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, unicodeEscape);
}

/**
 * Text for a `/** ... *\/` comment (the lines go after ` *`): `*\/` cannot end it. Line breaks are kept as lines;
 * every line terminator JavaScript knows ends a line here, so none hides inside one.
 */
export function docCommentLines(text: string): string[] {
  return text.replaceAll('*/', '*\\/').split(/\r\n?|[\n\u2028\u2029]/);
}

/** Text for a one-line comment, `//` or `/** ... *\/`: line terminators become spaces and `*\/` cannot end it. */
export function commentText(text: string): string {
  return text.replace(/\s+/g, ' ').replaceAll('*/', '*\\/').trim();
}

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
  '=': '&#61;',
};

/** Text for HTML, in an element or a quoted attribute alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=]/g, (c) => HTML_ENTITIES[c]!);
}

/**
 * Markdown text on one line (a heading, a table cell, a paragraph): every character that could start inline markup,
 * a link, an HTML tag, an entity or a table cell is backslash-escaped (CommonMark lets any ASCII punctuation be), and so
 * is a block marker at its start; line breaks become spaces. The text shows as written.
 */
export function markdownText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>|&~]/g, '\\$&')
    .replace(/^[#+=-]/, '\\$&')
    .replace(/^(\d+)([.)])/, '$1\\$2');
}

/**
 * Markdown inline code on one line: fenced by more backticks than the text holds in a row, so the text cannot close
 * it; `|` escaped, which GitHub's tables would split a cell at even inside code.
 */
export function markdownCode(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').replaceAll('|', '\\|');
  const longest = Math.max(0, ...(oneLine.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/**
 * A file name for the header line every generated file starts with, whatever comment syntax holds it (`//`,
 * `/* *\/`, `<!-- -->`) or JSON: anything but plain path characters is written as a `\u` escape.
 */
export function headerFileName(path: string): string {
  return path.replace(/[^\w./@+,:~ -]|-(?=-)/g, unicodeEscape);
}
