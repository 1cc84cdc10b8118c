/**
 * What a generated package ships for its TypeScript sources: `src/x.ts` -> `dist/x.js` (ESM) and `dist/x.d.ts`, in
 * memory and without type checking (a test type-checks generated/ for real). esbuild strips the types, as
 * TypeScript's own emit would under verbatimModuleSyntax, at a fraction of the cost, in its own process; oxc writes
 * the declarations, as `tsc --isolatedDeclarations` would, each file on its own. The TypeScript compiler did that
 * too, but it cost a program per group of files (a second of a generation, and hundreds of MB for the 7 MB endpoint
 * module of a 10,000-method document) where oxc takes milliseconds. Compiling each file on its own requires the
 * sources to be isolatedDeclarations-clean: the generated sources are.
 */
import type { TransformOptions } from 'esbuild';
import { createRequire } from 'node:module';
import type { GeneratedFile } from './files.ts';
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

const ESBUILD_OPTIONS: TransformOptions = {
  loader: 'ts',
  // No `format`: the modules stay as written, exports where they are declared.
  target: 'es2022',
  // Text stays as written (esbuild would escape every non-ASCII character).
  charset: 'utf8',
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
};

// Loaded on first use, and synchronously: the requests go out at once, so esbuild works while this thread goes on.
let esbuild: typeof import('esbuild') | undefined;
let oxc: typeof import('oxc-transform') | undefined;

/** JavaScript and declarations of each source, each file under the header line of its source. */
export async function emitJavaScript(sources: TypeScriptSource[]): Promise<GeneratedFile[]> {
  const header = headerOfSource(sources);
  const compiled = sources.filter((source) => !source.output);
  const require = createRequire(import.meta.url);
  esbuild ??= require('esbuild') as typeof import('esbuild');
  const { transform } = esbuild;
  const javascript = compiled.map(async ({ path, contents }) => {
    try {
      return (await transform(contents, { ...ESBUILD_OPTIONS, sourcefile: path })).code;
    } catch (error) {
      throw new Error(`cannot emit ${path}: ${(error as Error).message}`);
    }
  });
  oxc ??= require('oxc-transform') as typeof import('oxc-transform');
  const declarations = compiled.map(({ path, contents }) => declarationsOf(oxc!, path, contents));
  const js = await Promise.all(javascript);
  const outputs = new Map(compiled.map((source, i) => [source.path, { js: js[i]!, dts: declarations[i]! }]));
  return sources.flatMap((source) => {
    const output = source.output ?? outputs.get(source.path)!;
    const base = source.path.replace(/^src\//, 'dist/').replace(/\.ts$/, '');
    return [
      { path: `${base}.js`, contents: withHeader(output.js, header(`${base}.js`)) },
      { path: `${base}.d.ts`, contents: withHeader(output.dts, header(`${base}.d.ts`)) },
    ];
  });
}

/** Each emitted file carries the header line of the source it comes from. */
function headerOfSource(sources: TypeScriptSource[]): (path: string) => string {
  const headers = new Map(
    sources.map((source) => [source.path.replace(/^src\/|\.ts$/g, ''), source.contents.split('\n', 1)[0]!]),
  );
  return (path) => {
    const header = headers.get(path.replace(/^dist\/|\.d\.ts$|\.js$/g, ''));
    if (header === undefined || !isHeaderComment(header))
      throw new Error(`the source of ${path} does not start with a header line`);
    return header;
  };
}

/** The emitted file under exactly one header line: the compilers keep the source's own header on some outputs only. */
function withHeader(text: string, header: string): string {
  // The first line only: splitting a 50 MB validators module into its lines would cost more than the module.
  const firstEnd = text.indexOf('\n');
  const first = firstEnd === -1 ? text : text.slice(0, firstEnd);
  const rest = isHeaderComment(first) ? text.slice(first.length + 1) : text;
  // Output that is already so (the templates' modules, 50 MB of validators at 10,000 methods) is not copied.
  if (first === header && rest.length > 1 && rest.endsWith('\n') && rest.trim().length === rest.length - 1) return text;
  const body = rest.trim();
  return `${header}\n${body || 'export {};'}\n`;
}

function declarationsOf(oxc: typeof import('oxc-transform'), path: string, contents: string): string {
  const { code, errors } = oxc.isolatedDeclarationSync(path, contents, { stripInternal: false });
  if (errors.length > 0)
    throw new Error(
      `cannot emit declarations of ${path}:\n${errors.map((error) => error.codeframe ?? error.message).join('\n')}`,
    );
  return code;
}
