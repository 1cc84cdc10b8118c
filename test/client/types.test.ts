/** Runs the type-level assertions of type-level.ts through the compiler; every diagnostic is printed on failure. */
import { join, resolve } from 'node:path';
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

describe('types of the generated client', () => {
  it('reject wrong and missing params, and give results the spec types', () => {
    const project = new Project({ tsConfigFilePath: join(ROOT, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
    const file = project.addSourceFileAtPath(join(ROOT, 'test/client/type-level.ts'));
    project.resolveSourceFileDependencies();
    const diagnostics = project.getPreEmitDiagnostics().filter((d) => d.getSourceFile()?.getFilePath().startsWith(`${ROOT}/generated`) || d.getSourceFile() === file);
    expect(diagnostics.length, project.formatDiagnosticsWithColorAndContext(diagnostics)).toBe(0);
    expect(file.getText().match(/@ts-expect-error/g)?.length).toBe(11);
  });
});
