/**
 * Everything in generated/ compiles under strict TypeScript, its declaration files included; the client package also
 * compiles for a browser (DOM, no Node types) and passes the strictest flags a consumer may turn on. Diagnostics are
 * printed in full when it fails.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : typeScriptFiles(path);
    return /\.(d\.)?ts$/.test(name) ? [path] : [];
  });
}

const STRICT: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  skipLibCheck: false,
};

const FORMAT_HOST: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};

function diagnostics(files: string[], options: ts.CompilerOptions): string {
  const program = ts.createProgram(files, options);
  const found = ts.getPreEmitDiagnostics(program).filter((d) => !d.file?.fileName.includes('/node_modules/'));
  return found.length === 0 ? '' : ts.formatDiagnosticsWithColorAndContext(found, FORMAT_HOST);
}

const NODE_TYPES = { types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] };

describe('generated/ compiles', () => {
  // generated/ holds two package sets (the Avalanche APIs, and generated/c-chain): one program of 3.4 MB of TypeScript.
  it('all of it, under strict TypeScript as this repository compiles (ES2022, default libraries, Node types)', {
    timeout: 600_000,
  }, () => {
    const files = typeScriptFiles(join(ROOT, 'generated'));
    expect(files.length).toBeGreaterThan(0);
    const problems = diagnostics(files, { ...STRICT, ...NODE_TYPES });
    expect(problems, problems).toBe('');
  });

  it('the client, on Node without DOM types', () => {
    const problems = diagnostics(typeScriptFiles(join(ROOT, 'generated/client')), {
      ...STRICT,
      ...NODE_TYPES,
      lib: ['lib.es2022.d.ts'],
    });
    expect(problems, problems).toBe('');
  });

  it('the client, in a browser (DOM types, no Node types), with the strictest flags a consumer may turn on', () => {
    const problems = diagnostics(typeScriptFiles(join(ROOT, 'generated/client')), {
      ...STRICT,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      exactOptionalPropertyTypes: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noPropertyAccessFromIndexSignature: true,
      isolatedDeclarations: true,
      declaration: true,
    });
    expect(problems, problems).toBe('');
  });
});
