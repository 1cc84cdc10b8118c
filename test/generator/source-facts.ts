/**
 * What the layering test reads of a source file, from its syntax tree (the TypeScript parser, so template literals,
 * regular expressions and comments are what they are): the modules it loads, by any means, and the members it reads.
 */
import ts from 'typescript';

export interface SourceFacts {
  /** Every module specifier the file loads: imports, re-exports, `import()`, `import('...')` types, `require`. */
  specifiers: string[];
  /** Loads whose module is computed at run time: the graph cannot follow them (`import(name)`), quoted as written. */
  unresolved: string[];
  /**
   * Member names the file reads: `a.name`, `a['name']`, `a[NAME]` (a constant of the file), `{ name }`, `'name' in a`,
   * `import { name }`.
   */
  members: Set<string>;
  /** Names the file exports by an export list (`export { a, b }`). */
  exported: Set<string>;
}

const literalText = (node: ts.Node | undefined): string | undefined =>
  node && ts.isStringLiteralLike(node) ? node.text : undefined;

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)
    ? unwrap(node.expression)
    : node;

const isCreateRequire = (node: ts.Expression): boolean => {
  const call = unwrap(node);
  if (!ts.isCallExpression(call)) return false;
  const callee = unwrap(call.expression);
  return (
    (ts.isIdentifier(callee) && callee.text === 'createRequire') ||
    (ts.isPropertyAccessExpression(callee) && callee.name.text === 'createRequire')
  );
};

export function sourceFacts(text: string, fileName = 'source.ts'): SourceFacts {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const unresolved: string[] = [];
  const members = new Set<string>();
  const exported = new Set<string>();
  // Names bound to a string constant (`const KEY = 'x-mock-only'`), and to a require (`createRequire(...)`), file-wide:
  // a name shadowed in an inner scope is read as the outer one, which can only see more, not less.
  const constants = new Map<string, string>();
  const requires = new Set(['require']);
  const collect = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const value = literalText(unwrap(node.initializer));
      if (value !== undefined) constants.set(node.name.text, value);
      if (isCreateRequire(node.initializer)) requires.add(node.name.text);
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  /** The key an expression computes: a string, or a constant of the file. */
  const computedKey = (node: ts.Expression): string | undefined => {
    const inner = unwrap(node);
    return literalText(inner) ?? (ts.isIdentifier(inner) ? constants.get(inner.text) : undefined);
  };
  /** The key a property name names: `name`, `'name'`, `[NAME]`. */
  const keyOf = (node: ts.Node): string | undefined =>
    ts.isComputedPropertyName(node)
      ? computedKey(node.expression)
      : ts.isIdentifier(node) || ts.isPrivateIdentifier(node)
        ? node.text
        : literalText(node);
  /** `a.b = v` sets a member, which reads nothing of it (`a.b += v` and `a.b.c = v` do). */
  const written = (node: ts.Node) =>
    ts.isBinaryExpression(node.parent) &&
    node.parent.left === node &&
    node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
  const load = (argument: ts.Node | undefined, node: ts.Node) => {
    const specifier = argument && literalText(ts.isExpression(argument) ? unwrap(argument) : argument);
    if (specifier !== undefined) specifiers.push(specifier);
    else unresolved.push(node.getText(source));
  };
  /** The members `node` reads, if it reads any. */
  const readKeys = (node: ts.Node): Array<string | undefined> => {
    if (ts.isPropertyAccessExpression(node)) return written(node) ? [] : [node.name.text];
    if (ts.isElementAccessExpression(node)) return written(node) ? [] : [computedKey(node.argumentExpression)];
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent))
      return [keyOf(node.propertyName ?? node.name)];
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword)
      return [computedKey(node.left)];
    // A named import reads its module's member (`import { cAvaxDocument } from ...`), as a re-export does.
    if (ts.isImportSpecifier(node) || (ts.isExportSpecifier(node) && node.parent.parent.moduleSpecifier))
      return [keyOf(node.propertyName ?? node.name)];
    return [];
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      load(node.moduleSpecifier, node);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      load(node.moduleReference.expression, node);
    else if (ts.isImportTypeNode(node))
      load(ts.isLiteralTypeNode(node.argument) ? node.argument.literal : node.argument, node);
    else if (ts.isCallExpression(node)) {
      const callee = unwrap(node.expression);
      const loads =
        node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && requires.has(callee.text)) ||
        isCreateRequire(callee);
      if (loads) load(node.arguments[0], node);
    }
    for (const key of readKeys(node)) if (key !== undefined) members.add(key);
    if (ts.isExportSpecifier(node)) exported.add(keyOf(node.name)!);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, unresolved, members, exported };
}
