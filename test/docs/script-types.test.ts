/**
 * The docs site's script is plain JavaScript the browser runs as written, type-checked through JSDoc against the DOM
 * (generators/docs/assets/tsconfig.json, which `npm run typecheck` also runs): here so that `npm test` holds it too.
 */
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, 'generators/docs/assets/tsconfig.json');

describe('the docs site script', () => {
  it('type-checks against the DOM under the strict options', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      CONFIG,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => expect.fail(String(diagnostic.messageText)) },
    )!;
    expect(config.fileNames).toEqual([join(ROOT, 'generators/docs/assets/site.js')]);
    expect(config.options).toMatchObject({ checkJs: true, strict: true, noUncheckedIndexedAccess: true });
    const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram(config.fileNames, config.options));
    const host: ts.FormatDiagnosticsHost = {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => '\n',
    };
    expect(diagnostics.length, ts.formatDiagnosticsWithColorAndContext(diagnostics, host)).toBe(0);
  });
});
