/**
 * The generated server reads like code: validators over many indented lines, typed rather than under `@ts-nocheck`,
 * every function named after what it checks or writes, within 120 columns; the line-based rewrite of
 * generators/server/standalone.ts and the layout of generators/server/layout.ts on their own.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indent, layOut } from '../../generators/server/layout.ts';
import { budgetedCode } from '../../generators/server/standalone.ts';

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

  it('are laid out one statement a line, indented, with no line over 120 columns (ajv once wrote one line)', () => {
    for (const { name, text } of modules) {
      expect(Math.max(...text.split('\n').map((line) => line.length)), name).toBeLessThanOrEqual(120);
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

describe('the generated endpoint modules', () => {
  const SRC = join(import.meta.dirname, '../../generated/server/src');
  it('keep imports and handler signatures within 120 columns', () => {
    for (const name of readdirSync(SRC).filter((file) => file.endsWith('.ts') && file !== 'types.ts')) {
      const lines = readFileSync(join(SRC, name), 'utf8').split('\n');
      const code = lines.filter((line) => /^(import|\s{2}\w+\(|\s{4}(params|context): )/.test(line));
      for (const line of code) expect(line.length, `${name}: ${line}`).toBeLessThanOrEqual(120);
    }
  });
});

describe('layout.ts', () => {
  it('indents one level for each line that opens brackets, skipping those inside strings', () => {
    expect(indent('if(a){\nconst s = "}{(";\nf({x: [1,\n2]});\n}\nelse {\ng();\n}')).toBe(
      'if(a){\n  const s = "}{(";\n  f({x: [1,\n    2]});\n}\nelse {\n  g();\n}',
    );
    expect(indent('if(!(f(a, {\nb: 1\n}))){\ng();\n}')).toBe('if(!(f(a, {\n  b: 1\n}))){\n  g();\n}');
  });

  it('breaks a wide line where a reader expects it, and the code means what it meant', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`);
    const code = [
      `const e = {instancePath,keyword:"enum",params:{allowedValues: ${JSON.stringify(words)}},message:"x"};`,
      `const c = ${words.map((w) => `(k === "${w}")`).join(' || ')};`,
      `const s = ${JSON.stringify(`${words.join(' ')} "quoted\\" \u2028|${words.join('|')}`)};`,
      `const p = "/a/" + ${words.map((w) => `"${w}"`).join(' + ')};`,
    ].join('\n');
    const laidOut = layOut(code, 60);
    for (const line of laidOut.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(laidOut).toContain('  keyword: "enum",\n');
    const run = (text: string) => new Function('instancePath', 'k', `${text}\nreturn [e, c, s, p];`)('/x', 'word29');
    expect(run(laidOut)).toEqual(run(code));
  });
});

describe('standalone.ts', () => {
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
