/**
 * The spec's types: json-schema-to-typescript compiles each named type on its own (references between types are
 * already names, `tsType`, so the compiler never invents one, and each output is checked to declare exactly the type
 * asked for); the TypeScript printer then lays the declarations out in the project's style.
 */
import { compile, type Options } from 'json-schema-to-typescript';
import ts from 'typescript';
import { wrapWideUnions } from '../shared/lines.ts';
import { hidePrototypeNames } from './prototype-names.ts';
import type { NamedType } from './schemas.ts';

const OPTIONS: Partial<Options> = {
  bannerComment: '',
  // The TypeScript printer lays the declarations out afterwards; prettier here would cost seconds.
  format: false,
  // A type the compiler names on its own is declared, so the one-declaration check below sees it.
  declareExternallyReferenced: true,
  // An object schema that says nothing about other keys gets none: params are typed, not open-ended.
  additionalProperties: false,
  unknownAny: true,
  strictIndexSignatures: false,
  enableConstEnums: false,
  // Tuples from minItems/maxItems make lists the node sends hard to use; a list is a list.
  ignoreMinAndMaxItems: true,
  unreachableDefinitions: false,
  $refOptions: { resolve: { file: false, http: false } },
};

const DECLARATION = /^export (?:interface|type|declare enum|enum|const enum) ([A-Za-z_$][\w$]*)/gm;

async function compileOne({ name, schema }: NamedType): Promise<string> {
  let output: string;
  try {
    // json-schema-to-typescript annotates the schema it is given: it gets a copy.
    output = await compile(structuredClone(schema) as object, name, OPTIONS);
  } catch (error) {
    throw new Error(
      `json-schema-to-typescript could not compile the type ${name}: ${error instanceof Error ? error.message : error}`,
    );
  }
  const declared = [...output.matchAll(DECLARATION)];
  if (declared.length !== 1) {
    throw new Error(
      `json-schema-to-typescript declared ${declared.map((m) => m[1]).join(', ') || 'nothing'} for the type ${name}; ` +
        'expected exactly one declaration',
    );
  }
  // The compiler spells the top-level name its own way (`uint64` -> `Uint64`); the name decided in model/names.ts wins.
  const [match] = declared as [RegExpExecArray];
  const at = match.index + match[0].length - match[1]!.length;
  return (output.slice(0, at) + name + output.slice(at + match[1]!.length)).trim();
}

/**
 * Drops the parentheses json-schema-to-typescript puts around every union where nothing needs them:
 * `x: (A | null)` becomes `x: A | null`; `(A | B)[]` keeps them.
 */
const unwrapParentheses: ts.TransformerFactory<ts.SourceFile> = (context) => {
  const visit = (node: ts.Node): ts.Node => {
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
};

/**
 * Declarations reprinted in the project's style: two-space indent, semicolons, no needless parentheses, one blank line
 * between top-level declarations, comments kept, a union wider than a line one member a line.
 */
function print(text: string, fileName: string): string {
  // The printer copies comments from the text; parsing them as JSDoc would only cost time.
  const parsed = ts.createSourceFile(
    fileName,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    true,
  );
  const result = ts.transform(parsed, [unwrapParentheses]);
  const file = result.transformed[0]!;
  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const statements = file.statements.map((statement) => printer.printNode(ts.EmitHint.Unspecified, statement, file));
  result.dispose();
  const printed = statements
    .join('\n\n')
    .replace(/^( {4})+/gm, (indent) => '  '.repeat(indent.length / 4))
    .replace(/(?<![ \t])[ \t]+$/gm, '')
    .replace(/\{\n\s*\}/g, '{}');
  return wrapWideUnions(printed);
}

/** TypeScript declarations for the named types, in the given order, printed in the project's style. */
export async function compileAndPrintTypes(types: NamedType[], fileName: string): Promise<string> {
  const hidden = hidePrototypeNames(types);
  // One at a time: types compiled all at once each hold their dereferenced copy of the schema until the last is done.
  const outputs: string[] = [];
  for (const type of hidden.types) outputs.push(await compileOne(type));
  return hidden.restore(print(outputs.join('\n\n'), fileName));
}
