/** What generators return: files, as text, relative to the output folder (emit/output.ts writes them). */

export interface GeneratedFile {
  /** Path relative to the output folder, with forward slashes. */
  path: string;
  contents: string;
}

/** Where a run writes when no `--out` is given. */
export const DEFAULT_OUT = 'generated';

/**
 * C0 and C1 controls but tab and line breaks, and DEL: any string of a spec may hold them, and raw in a file ESC starts
 * a terminal's control sequences when it is shown, NUL makes tools take the file for a binary one. Written as `\u`
 * escapes they show as text in a comment, a page or a README, and mean the same character in a string literal or JSON.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
export const escapeControls = (text: string) =>
  text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Generated text files all end in exactly one newline and use LF. */
export function textFile(path: string, contents: string): GeneratedFile {
  // trimEnd, not /\s*$/: the regex retries every run of whitespace in a large file, in quadratic time.
  return { path, contents: `${escapeControls(contents.replace(/\r\n/g, '\n')).trimEnd()}\n` };
}

/** JSON output: two-space indent, final newline. */
export function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, contents: `${escapeControls(JSON.stringify(value, null, 2))}\n` };
}
