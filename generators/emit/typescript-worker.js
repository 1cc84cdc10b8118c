// The TypeScript compiler's share of generation, on a thread of its own (see typescript.ts). Plain JavaScript, so a
// worker needs no TypeScript loader. Loading the compiler is a good part of its cost, and happens while the main
// thread loads and checks the spec.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';

// The compiler ts-morph is built on, without ts-morph's own wrapper (which would double the load time), resolved from
// ts-morph's location so that it is always the copy ts-morph depends on.
const { ts } = createRequire(import.meta.resolve('ts-morph'))('@ts-morph/common');

const COMPILER_OPTIONS = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, newLine: ts.NewLineKind.LineFeed, verbatimModuleSyntax: true };
// Comments are kept as text either way; parsing them as JSDoc would only cost time.
const PARSE = { reportDiagnostics: true, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };

/** ESM JavaScript (comments dropped) and declarations (comments kept) of one isolatedDeclarations-clean source. */
function transpile({ path, contents }) {
  const js = ts.transpileModule(contents, { ...PARSE, compilerOptions: { ...COMPILER_OPTIONS, removeComments: true }, fileName: path });
  const dts = ts.transpileDeclaration(contents, { ...PARSE, compilerOptions: { ...COMPILER_OPTIONS, declaration: true, isolatedDeclarations: true }, fileName: path });
  const problems = [...(js.diagnostics ?? []), ...(dts.diagnostics ?? [])];
  if (problems.length > 0) {
    const where = (d) => (d.file && d.start !== undefined ? `line ${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '');
    throw new Error(`cannot emit ${path}:\n${problems.map((d) => where(d) + ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n')}`);
  }
  return { js: js.outputText, dts: dts.outputText };
}

/**
 * Drops the parentheses json-schema-to-typescript puts around every union where nothing needs them:
 * `x: (A | null)` becomes `x: A | null`; `(A | B)[]` keeps them.
 */
function unwrapParentheses(context) {
  const visit = (node) => {
    if (ts.isParenthesizedTypeNode(node)) {
      const parent = node.parent;
      const needless = ts.isPropertySignature(parent) || ts.isTypeAliasDeclaration(parent) || ts.isIndexSignatureDeclaration(parent) || ts.isParenthesizedTypeNode(parent) || ts.isUnionTypeNode(parent);
      if (needless && !ts.isFunctionTypeNode(node.type) && !ts.isConditionalTypeNode(node.type)) return ts.visitEachChild(node.type, visit, context);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => ts.visitEachChild(file, visit, context);
}

/** Declarations reprinted in one style: two-space indent, semicolons, one blank line between top-level statements. */
function print({ text, fileName }) {
  const parsed = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const result = ts.transform(parsed, [unwrapParentheses]);
  const file = result.transformed[0];
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const statements = file.statements.map((statement) => printer.printNode(ts.EmitHint.Unspecified, statement, file));
  result.dispose();
  return statements
    .join('\n\n')
    .replace(/^( {4})+/gm, (indent) => '  '.repeat(indent.length / 4))
    .replace(/[ \t]+$/gm, '')
    .replace(/\{\n\s*\}/g, '{}');
}

const JOBS = { transpile, print };

parentPort.on('message', ({ id, job, input }) => {
  try {
    parentPort.postMessage({ id, output: JOBS[job](input) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
