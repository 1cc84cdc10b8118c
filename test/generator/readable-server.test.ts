/**
 * The generated server reads like code: each validators module a table of schemas that the runtime's ajv compiles
 * (no generated validator code), typed rather than under `@ts-nocheck`, every writer named after what it writes,
 * within 120 columns. No line of any generated package passes 120 columns, its sources nor the JavaScript and
 * declarations of its dist/, and the cutters that keep the sources so (long strings into pieces, JSON an entry a
 * line) give back the value they were given.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonAsJavaScript, stringText } from '../../generators/shared/lines.ts';
import { wideLines } from '../support/wide-lines.ts';

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

  it('hold schemas for ajv, not validator code, with no line over 120 columns', () => {
    for (const { name, text } of modules) {
      expect(Math.max(...text.split('\n').map((line) => line.length)), name).toBeLessThanOrEqual(120);
      expect(text, name).toMatch(/^export const schemas: Record<string, MethodSchemas> = \{$/m);
      expect(text, name).not.toMatch(/vErrors|instancePath/);
    }
  });

  it('name every export and writer by what it holds or writes, none by position', () => {
    for (const { name, text } of modules) {
      const exported = [...text.matchAll(/^export const (\w+)/gm)].map((m) => m[1]!);
      expect(exported.length, name).toBeGreaterThan(1);
      for (const exportName of exported) expect(exportName).toMatch(/^(schemas|components|write[A-Z]\w*Result)$/);
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

describe('the code of every generated package', () => {
  const GENERATED = join(import.meta.dirname, '../../generated');
  // What a reader opens: each package's TypeScript sources, the JavaScript and declarations it ships (dist/, where
  // an editor's go-to-definition lands), and the docs site's script.
  const code = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : code(path);
      return /\.(ts|js)$/.test(name) ? [path] : [];
    });
  const files = code(GENERATED);

  it('is there: both packages of both specs, compiled too, the embedded documents and the docs script', () => {
    const names = files.map((path) => relative(GENERATED, path));
    for (const expected of [
      'client/src/p-chain.ts',
      'client/src/types.ts',
      'server/src/documents/p-chain.ts',
      'server/src/validators/p-chain.ts',
      'c-chain/client/src/types.ts',
      'c-chain/server/src/runtime/rpc.ts',
      'client/dist/p-chain.js',
      'client/dist/p-chain.d.ts',
      'server/dist/runtime/rpc.js',
      'server/dist/documents/p-chain.js',
      'c-chain/client/dist/c-chain-rpc.d.ts',
      'c-chain/server/dist/runtime/endpoint.d.ts',
      'docs/assets/site.js',
    ])
      expect(names).toContain(expected);
  });

  it('has no line over 120 columns, headers, embedded documents and types included', () => {
    for (const path of files) {
      expect(wideLines(readFileSync(path, 'utf8')), relative(GENERATED, path)).toEqual([]);
    }
  });
});

describe('long strings and JSON values cut to fit', () => {
  const evaluate = (source: string): unknown => new Function(`return (${source});`)();
  const widest = (source: string, column: number) =>
    Math.max(...source.split('\n').map((line, i) => [...line].length + (i === 0 ? column : 0)));
  // Words of every width, escapes (quotes, backslashes, line breaks, U+2028) and characters outside the BMP.
  const text = fc.string({
    unit: fc.constantFrom(
      'a',
      'bcdefgh ',
      ' ',
      "'",
      '"',
      '\\',
      '\n',
      '\u2028',
      '…',
      '😀',
      '0123456789abcdef'.repeat(4),
    ),
    maxLength: 300,
  });

  it('gives back the same string, each line within 120 columns (+1 for the comma after it)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 60 }), (value, column) => {
        const source = stringText(value, column, '      ');
        expect(evaluate(source)).toBe(value);
        expect(widest(source, column)).toBeLessThanOrEqual(120);
      }),
    );
  });

  it('gives back the same JSON value, its strings cut to fit', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), tie('object'), tie('array')),
      object: fc.dictionary(fc.constantFrom('description', '__proto__', 'a b', 'x'), tie('value'), { maxKeys: 3 }),
      array: fc.array(tie('value'), { maxLength: 3 }),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const source = jsonAsJavaScript(value);
        expect(JSON.stringify(evaluate(source))).toBe(JSON.stringify(value));
        expect(widest(source, 0)).toBeLessThanOrEqual(120);
      }),
    );
  });
});
