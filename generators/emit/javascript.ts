/**
 * What a generated package ships for its TypeScript sources: `src/x.ts` -> `dist/x.js` (ESM) and `dist/x.d.ts`, in
 * memory and without type checking (a test type-checks generated/ for real), laid out as a person would write them.
 */
import { type TransformOptions, transformSync } from 'oxc-transform';
import { type FormatConfig, format } from 'oxfmt';
import { type GeneratedFile, escapeControls } from './files.ts';
import { isHeaderComment } from './header.ts';

export interface TypeScriptSource {
  path: string;
  contents: string;
  /**
   * What to ship instead of compiling the source, for modules that are JavaScript or declarations by nature (ajv's
   * standalone code, a JSON document, a file of types): the compilers would only reformat them, at a high price.
   */
  output?: { js: string; dts: string };
}

/** A source of type declarations only: its JavaScript is an empty module and its declarations are the source itself. */
export function typesOnlySource(path: string, contents: string): TypeScriptSource {
  return { path, contents, output: { js: '', dts: contents } };
}

/** Type stripping as TypeScript's own emit under verbatimModuleSyntax: imports stay unless written `import type`. */
const TRANSFORM_OPTIONS: TransformOptions = {
  lang: 'ts',
  target: 'es2022',
  typescript: { onlyRemoveTypeImports: true, declaration: { stripInternal: false } },
};

/** The layout of the project's own code (biome.json), in which the compilers' output is laid out again. */
const LAYOUT: FormatConfig = { printWidth: 120, singleQuote: true, trailingComma: 'all', objectWrap: 'collapse' };

/** JavaScript and declarations of each source, each file under the header line of its source. */
export async function emitJavaScript(sources: TypeScriptSource[]): Promise<GeneratedFile[]> {
  const emitted = await Promise.all(sources.map(async (source) => [source, await compiled(source)] as const));
  return emitted.flatMap(([source, output]) => {
    const header = source.contents.split('\n', 1)[0]!;
    if (!isHeaderComment(header)) throw new Error(`${source.path} does not start with a header line`);
    const base = source.path.replace(/^src\//, 'dist/').replace(/\.ts$/, '');
    return [
      { path: `${base}.js`, contents: withHeader(output.js, header) },
      { path: `${base}.d.ts`, contents: withHeader(output.dts, header) },
    ];
  });
}

/**
 * oxc strips the types and writes the declarations, as `tsc --isolatedDeclarations` would, each file on its own (so
 * the sources must be isolatedDeclarations-clean: the generated sources are). Both print each statement on one line,
 * however long, so oxfmt (oxc's Prettier-compatible formatter, native) lays them out within the sources' 120 columns.
 * oxc keeps the sources' comments and their concatenated strings (esbuild joined them), which oxfmt breaks at the `+`.
 */
async function compiled(source: TypeScriptSource): Promise<{ js: string; dts: string }> {
  if (source.output) return source.output;
  const { path, contents } = source;
  const { code, declaration, errors } = transformSync(path, contents, TRANSFORM_OPTIONS);
  if (errors.length > 0) throw new Error(`cannot emit ${path}:\n${codeFrames(errors)}`);
  const base = path.replace(/\.ts$/, '');
  const [js, dts] = await Promise.all([laidOut(`${base}.js`, code), laidOut(`${base}.d.ts`, declaration ?? '')]);
  return { js, dts };
}

async function laidOut(path: string, code: string): Promise<string> {
  const { code: formatted, errors } = await format(path, code, LAYOUT);
  if (errors.length > 0) throw new Error(`cannot lay out ${path}:\n${codeFrames(errors)}`);
  return formatted;
}

function codeFrames(errors: Array<{ codeframe: string | null; message: string }>): string {
  return errors.map((error) => error.codeframe ?? error.message).join('\n');
}

/** The emitted file under exactly one header line: the compilers keep the source's own header on some outputs only. */
function withHeader(output: string, header: string): string {
  // oxc writes a string's `\u009b` escape as the character itself.
  const text = escapeControls(output);
  const first = text.split('\n', 1)[0]!;
  const body = (isHeaderComment(first) ? text.slice(first.length + 1) : text).trim();
  return `${header}\n${body || 'export {};'}\n`;
}
