/** What generators return: files, as text, relative to the output folder (emit/output.ts writes them). */

export interface GeneratedFile {
  /** Path relative to the output folder, with forward slashes. */
  path: string;
  contents: string;
}

/** Where a run writes when no `--out` is given. */
export const DEFAULT_OUT = 'generated';

/** Generated text files all end in exactly one newline and use LF. */
export function textFile(path: string, contents: string): GeneratedFile {
  // trimEnd, not /\s*$/: the regex retries every run of whitespace in a large file, in quadratic time.
  return { path, contents: `${contents.replace(/\r\n/g, '\n').trimEnd()}\n` };
}

/** JSON output: two-space indent, final newline. */
export function jsonFile(path: string, value: unknown): GeneratedFile {
  return { path, contents: `${JSON.stringify(value, null, 2)}\n` };
}
