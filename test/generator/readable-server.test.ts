/**
 * The generated server reads like code: validators over many indented lines, typed rather than under `@ts-nocheck`,
 * every function named after what it checks or writes; the line-based rewrite and indenter of
 * generators/server/standalone.ts on their own.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetedCode, indent } from '../../generators/server/standalone.ts';

const VALIDATORS = join(import.meta.dirname, '../../generated/server/src/validators');

describe('the generated validators modules', () => {
  const modules = readdirSync(VALIDATORS).map((name) => ({
    name,
    text: readFileSync(join(VALIDATORS, name), 'utf8'),
  }));

  it('are there, one for each endpoint module (every check below would pass on an empty folder)', () => {
    const endpoints = readdirSync(join(VALIDATORS, '..')).filter(
      (name) => name.endsWith('.ts') && name !== 'index.ts' && name !== 'types.ts',
    );
    expect(endpoints.length).toBeGreaterThanOrEqual(9);
    expect(modules.map((m) => m.name).sort()).toEqual(endpoints.sort());
  });

  it('are typed, not exempted from type checking', () => {
    for (const { name, text } of modules) expect(text, name).not.toContain('@ts-nocheck');
  });

  it('are laid out one statement a line, indented, with no line of 2,000 columns (ajv once wrote one line)', () => {
    for (const { name, text } of modules) {
      expect(Math.max(...text.split('\n').map((line) => line.length)), name).toBeLessThan(2000);
      expect(text, name).toMatch(/^ {2}let vErrors: ValidationError\[\] \| null = null;$/m);
    }
  });

  it('name every export and writer by what it checks or writes, none by position', () => {
    for (const { name, text } of modules) {
      const exported = [...text.matchAll(/^export const (\w+)/gm)].map((m) => m[1]!);
      expect(exported.length, name).toBeGreaterThan(0);
      for (const exportName of exported) expect(exportName).toMatch(/^(validate|write)[A-Z]\w*(Params|Result)$/);
      const writers = [...text.matchAll(/^function (\w+)\(v/gm)].map((m) => m[1]!);
      for (const writer of writers) expect(writer, name).toMatch(/^[a-z]\w*Json$/);
      expect(text, name).not.toMatch(/^(const|function) [a-z]\d+\b/m);
    }
  });
});

describe('standalone.ts', () => {
  it('indents by the brackets open, skipping those inside strings', () => {
    expect(indent('if(a){\nconst s = "}{(";\nf({x: [1,\n2]});\n}\nelse {\ng();\n}')).toBe(
      'if(a){\n  const s = "}{(";\n  f({x: [1,\n        2]});\n}\nelse {\n  g();\n}',
    );
  });

  it('points requires at the runtime and bounds the error list, refusing code it does not know', () => {
    const standalone = [
      '"use strict";',
      'export const validateXParams = validate1;',
      'const func2 = require("ajv/dist/runtime/ucs2length").default;',
      'function validate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){',
      'let vErrors = null;',
      'let errors = 0;',
      'if(func2(data) > 2){',
      'const err0 = {instancePath,keyword:"maxLength"};',
      'if(vErrors === null){',
      'vErrors = [err0];',
      '}',
      'else {',
      'vErrors.push(err0);',
      '}',
      'errors++;',
      '}',
      'validate1.errors = vErrors;',
      'return errors === 0;',
      '}',
    ].join('\n');
    const { code, typedCode, helpers } = budgetedCode(standalone, 'x');
    expect(helpers).toEqual(['ucs2length']);
    expect(code).toContain('export const validateXParams = budgeted(validate1);');
    expect(code).toContain('const func2 = ucs2length;');
    expect(code).toContain('    const err0 = --budget.left < 0 ? TOO_MANY : {instancePath,keyword:"maxLength"};');
    expect(code).toContain('      keep(vErrors, err0);');
    expect(code).not.toContain('use strict');
    expect(typedCode).toContain('export const validateXParams: ValidateFunction = budgeted(validate1);');
    expect(typedCode).toContain('declare namespace validate1 { let errors: ValidationError[] | null; }');
    expect(() =>
      budgetedCode(standalone.replace('vErrors.push(err0);', 'vErrors = vErrors.concat([err0]);'), 'x'),
    ).toThrow(/keep errors in a way the budget rewrite does not know/);
  });
});
