/**
 * Every spec problem names the hand-written file and the JSON pointer inside it, so an author can go straight there.
 */
export interface SpecProblem {
  file: string;
  pointer: string;
  message: string;
}

export class SpecError extends Error {
  readonly problems: SpecProblem[];
  constructor(problems: SpecProblem[]) {
    super(
      `The OpenRPC spec has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n` +
        problems.map((p) => `  ${p.file}#${p.pointer}: ${p.message}`).join('\n'),
    );
    this.problems = problems;
    this.name = 'SpecError';
  }
}

export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(tokens: ReadonlyArray<string | number>): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * A `$ref` to `pointer` in the same document: `#` and the pointer as a URI fragment, what a URI may not hold (a space,
 * `%`, `ü`) percent-encoded (RFC 6901 section 6). A lone surrogate has no encoding: it is left for the meta-schema's
 * `uri-reference` check to name.
 */
export function localRef(pointer: string): string {
  const encode = (char: string) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return char;
    }
  };
  return `#${pointer.replace(/[^\w\-.~!$&'()*+,;=:@/?]/gu, encode)}`;
}

/** The pointer a local `$ref` (`#/...`) names, its fragment percent-decoded; undefined for any other reference. */
export function localPointer(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
}

export function resolvePointer(root: unknown, pointer: string): { found: boolean; value: unknown } {
  let node: unknown = root;
  for (const token of parsePointer(pointer)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token))
      return { found: false, value: undefined };
    node = (node as Record<string, unknown>)[token];
  }
  return { found: true, value: node };
}
