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

const JOBS = { types };
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
