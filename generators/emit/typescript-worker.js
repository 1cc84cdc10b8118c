// The TypeScript compiler's share of generation, and json-schema-to-typescript's, on a thread of its own (see
// typescript.ts). Plain JavaScript, so a worker needs no TypeScript loader. Loading the compilers is a good part of
// their cost, and happens while the main thread loads and checks the spec.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { requireWithCodeCache } from './code-cache.js';
import { compileTypes } from '../types/json-schema-to-typescript.js';

// The toolkit's own `typescript` (the one `npm run typecheck` uses), by its package entry, through V8's code cache.
const compiler = requireWithCodeCache(createRequire(import.meta.url).resolve('typescript'));
const ts = compiler.exports;

// What ts.transpileDeclaration sets up, in public options: each file on its own (no resolution), declarations only.
const DECLARATION_OPTIONS = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  newLine: ts.NewLineKind.LineFeed,
  verbatimModuleSyntax: true,
  noResolve: true,
  declaration: true,
  emitDeclarationOnly: true,
  isolatedDeclarations: true,
};
const LIB_NAME = 'lib.d.ts';
const LIB = ts.createSourceFile(
  LIB_NAME,
  `interface Boolean {}\ninterface Function {}\ninterface CallableFunction {}\ninterface NewableFunction {}\ninterface IArguments {}\ninterface Number {}\ninterface Object {}\ninterface RegExp {}\ninterface String {}\ninterface Array<T> { length: number; [n: number]: T; }\ninterface SymbolConstructor {\n    (desc?: string | number): symbol;\n    for(name: string): symbol;\n    readonly toStringTag: symbol;\n}\ndeclare var Symbol: SymbolConstructor;\ninterface Symbol {\n    readonly [Symbol.toStringTag]: string;\n}`,
  { languageVersion: ts.ScriptTarget.Latest },
);

/**
 * The declarations of isolatedDeclarations-clean sources, exactly as ts.transpileDeclaration makes them file by file,
 * but with one program for a group of files: a program per file costs more than the emit itself. A program holds
 * the syntax trees of all its files until it is done, so a group stops at PROGRAM_SOURCE_CHARS of source: a spec's
 * handful of files make one program, the 7 MB endpoint module of a 10,000-method document one of its own.
 */
function declarations({ sources }) {
  const outputs = [];
  let group = [];
  let size = 0;
  for (const source of sources) {
    if (group.length > 0 && size + source.contents.length > PROGRAM_SOURCE_CHARS) {
      outputs.push(...declarationsOfGroup(group));
      group = [];
      size = 0;
    }
    group.push(source);
    size += source.contents.length;
  }
  if (group.length > 0) outputs.push(...declarationsOfGroup(group));
  return outputs;
}

const PROGRAM_SOURCE_CHARS = 1_000_000;

function declarationsOfGroup(sources) {
  const files = new Map();
  const host = {
    getSourceFile: (fileName) => (fileName === LIB_NAME ? LIB : files.get(fileName)),
    writeFile: (name, text) => outputs.set(name.replace(/\.d\.ts$/, '.ts'), text),
    getDefaultLibFileName: () => LIB_NAME,
    useCaseSensitiveFileNames: () => false,
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => '',
    getNewLine: () => '\n',
    fileExists: (fileName) => files.has(fileName) || fileName === LIB_NAME,
    readFile: () => '',
    directoryExists: () => true,
    getDirectories: () => [],
  };
  const outputs = new Map();
  for (const { path, contents } of sources) {
    files.set(
      path,
      ts.createSourceFile(path, contents, {
        languageVersion: DECLARATION_OPTIONS.target,
        impliedNodeFormat: ts.ModuleKind.ESNext,
        // Comments are kept as text; parsing them as JSDoc would only cost time.
        jsDocParsingMode: ts.JSDocParsingMode.ParseNone,
      }),
    );
  }
  const program = ts.createProgram([...files.keys()], DECLARATION_OPTIONS, host);
  const problems = [
    ...program.getOptionsDiagnostics(),
    ...[...files.values()].flatMap((file) => program.getSyntacticDiagnostics(file)),
    ...program.emit(undefined, undefined, undefined, true, undefined, true).diagnostics,
  ];
  if (problems.length > 0) {
    const where = (d) =>
      d.file && d.start !== undefined
        ? `${d.file.fileName} line ${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `
        : '';
    throw new Error(
      `cannot emit declarations:\n${problems.map((d) => where(d) + ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n')}`,
    );
  }
  return sources.map(({ path }) => outputs.get(path));
}

/**
 * Drops the parentheses json-schema-to-typescript puts around every union where nothing needs them:
 * `x: (A | null)` becomes `x: A | null`; `(A | B)[]` keeps them.
 */
function unwrapParentheses(context) {
  const visit = (node) => {
    if (ts.isParenthesizedTypeNode(node)) {
      const parent = node.parent;
      const needless =
        ts.isPropertySignature(parent) ||
        ts.isTypeAliasDeclaration(parent) ||
        ts.isIndexSignatureDeclaration(parent) ||
        ts.isParenthesizedTypeNode(parent) ||
        ts.isUnionTypeNode(parent);
      if (needless && !ts.isFunctionTypeNode(node.type) && !ts.isConditionalTypeNode(node.type))
        return ts.visitEachChild(node.type, visit, context);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => ts.visitEachChild(file, visit, context);
}

/**
 * Declarations reprinted in the project's style: two-space indent, semicolons, no needless parentheses, one blank line
 * between top-level declarations, comments kept.
 */
function print({ text, fileName }) {
  // The printer copies comments from the text; parsing them as JSDoc would only cost time.
  const parsed = ts.createSourceFile(
    fileName,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    true,
  );
  const result = ts.transform(parsed, [unwrapParentheses]);
  const file = result.transformed[0];
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const statements = file.statements.map((statement) => printer.printNode(ts.EmitHint.Unspecified, statement, file));
  result.dispose();
  return statements
    .join('\n\n')
    .replace(/^( {4})+/gm, (indent) => '  '.repeat(indent.length / 4))
    .replace(/(?<![ \t])[ \t]+$/gm, '')
    .replace(/\{\n\s*\}/g, '{}');
}

/** The spec's types: json-schema-to-typescript's declarations, printed in the project's style. */
async function types({ types, fileName }) {
  return print({ text: await compileTypes(types), fileName });
}

const JOBS = { declarations, types };
const jobsDone = new Set();

parentPort.on('message', async ({ id, job, input }) => {
  try {
    parentPort.postMessage({ id, output: await JOBS[job](input) });
    // Each kind of job runs other parts of the compiler: until a cache is in place, the first job of each kind leaves
    // what V8 compiled so far for the next start.
    if (!jobsDone.has(job)) {
      jobsDone.add(job);
      compiler.save();
    }
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
