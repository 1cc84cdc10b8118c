/** Runs the type-level assertions of type-level.ts through the compiler; every diagnostic is printed on failure. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

describe('types of the generated client', () => {
  it('reject wrong and missing params, and give results the spec types', () => {
    const file = join(ROOT, 'test/client/type-level.ts');
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    )!;
    const program = ts.createProgram([file], config.options);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName.startsWith(`${ROOT}/generated`) || d.file?.fileName === file);
    const host: ts.FormatDiagnosticsHost = {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => '\n',
    };
    expect(diagnostics.length, ts.formatDiagnosticsWithColorAndContext(diagnostics, host)).toBe(0);
    expect(readFileSync(file, 'utf8').match(/@ts-expect-error/g)?.length).toBe(16);
  });
});
