/**
 * Type-checks generated package sources as a strict consumer would (strict, no unchecked index access, exact optional
 * properties), with Node's types from the toolkit's install: the diagnostics' count and their text for a message.
 */
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');

export function strictDiagnostics(files: string[]): { count: number; text: string } {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
  };
  const found = ts.getPreEmitDiagnostics(ts.createProgram(files, options));
  const host: ts.FormatDiagnosticsHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => '\n',
  };
  return { count: found.length, text: ts.formatDiagnosticsWithColorAndContext(found, host) };
}
