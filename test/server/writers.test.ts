/**
 * The result writers compiled from the schemas (generators/server/writers.ts) write exactly what goStringify writes,
 * or leave the value to it: over every example result, and over thousands of values mutated away from them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as server from '../../generated/server/dist/index.js';
import { goStringify, writeScalar, writeString } from '../../generated/server/dist/runtime/encode.js';
import type { MethodSpec } from '../../generated/server/dist/runtime/rpc.js';
import { loadModel } from '../../generators/pipeline.ts';
import { writersCode } from '../../generators/server/writers.ts';

const model = loadModel();
const specs = new Map<string, MethodSpec>(
  Object.values(server.ENDPOINTS)
    .flatMap((endpoint) => endpoint.methods)
    .map((spec) => [spec.name, spec]),
);
const methods = model.endpoints
  .flatMap((endpoint) => endpoint.methods)
  .map((method) => ({ method, write: specs.get(method.name)!.writeResult! }));

/** What the runtime sends: the writer's text, or goStringify's where the writer leaves the value. */
function agrees(write: (value: unknown) => string | undefined, value: unknown): boolean {
  let expected: string | undefined;
  try {
    expected = goStringify(value);
  } catch {
    expected = undefined;
  }
  let written: string | undefined;
  try {
    written = write(value);
  } catch {
    // A value goStringify cannot write either (a BigInt) may fail in the writer first: the answer is the same error.
    return expected === undefined;
  }
  return written === undefined || written === expected;
}

const special = fc.oneof(
  fc.constantFrom(
    '<b>&amp;</b>',
    '\u2028',
    '\u2029',
    'a"b',
    'back\\slash',
    '\u0000\u001f',
    '\ud800',
    '\udc00x',
    '😀',
    'toJSON',
    '__proto__',
    '0',
    '10',
  ),
  fc.constantFrom(Number.NaN, Infinity, -0, 1e21, 5e-324, Number.MAX_SAFE_INTEGER + 2, undefined, null, true),
  // Made afresh for each use: later edits may add keys to them.
  fc
    .constantFrom(
      () => new Date(0),
      () => [undefined, 1],
      () => Object.create(null) as object,
      () => ({ toJSON: () => 'replaced' }),
      () => Object.assign([1], { extra: 2 }),
      () => Object.create({ inherited: 1 }) as object,
    )
    .map((make) => make()),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({
    unit: fc.constantFrom('a', '<', '>', '&', '"', '\\', '\n', '\u2028', '\u2029', '\ud800', '\udfff', 'é'),
    maxLength: 4,
  }),
  fc.anything({
    withNullPrototype: true,
    withBoxedValues: true,
    withSparseArray: true,
    withDate: true,
    withBigInt: true,
    maxDepth: 2,
  }),
);

type Path = Array<string | number>;
function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value))
      paths(child, [...at, Array.isArray(value) ? Number(key) : key], out);
  return out;
}

/** Replaces the value at `path` in `root`, or adds or deletes a key there; returns the root (a new one if replaced). */
function edit(
  root: unknown,
  path: Path,
  kind: 'replace' | 'add' | 'delete',
  key: string,
  replacement: unknown,
): unknown {
  if (path.length === 0) return kind === 'replace' ? replacement : root;
  let parent = root;
  for (const step of path.slice(0, -1)) {
    if (!parent || typeof parent !== 'object') return root;
    parent = (parent as Record<string | number, unknown>)[step];
  }
  if (!parent || typeof parent !== 'object') return root;
  const last = path[path.length - 1]!;
  const target = (parent as Record<string | number, unknown>)[last];
  if (kind === 'replace') Reflect.set(parent, last, replacement);
  else if (target && typeof target === 'object') {
    if (kind === 'add') Reflect.set(target, key, replacement);
    else Reflect.deleteProperty(target, Object.keys(target)[0] ?? key);
  }
  return root;
}

describe('compiled result writers', () => {
  it('write the example results as goStringify does, most without handing them back', () => {
    let written = 0;
    for (const { method, write } of methods) {
      for (const example of method.examples)
        expect(agrees(write, example.result), `${method.name}: ${example.name}`).toBe(true);
      if (method.examples.length > 0 && method.examples.every((example) => write(example.result) !== undefined))
        written++;
    }
    // Results whose schema has a part the writers leave to goStringify (a oneOf, an untyped value) are handed back.
    expect(written).toBeGreaterThan(methods.length / 2);
  });

  it.each(methods.map(({ method, write }) => [method.name, method, write] as const))(
    'never write %s differently from goStringify',
    (_name, method, write) => {
      const bases = method.examples.map((example) => example.result);
      const value = fc.constantFrom(...(bases.length > 0 ? bases : [{}])).chain((base) => {
        const places = paths(base);
        return fc
          .array(
            fc.tuple(
              fc.constantFrom(...places),
              fc.constantFrom('replace', 'add', 'delete'),
              fc.constantFrom('extra', 'toJSON', '1', ...places.flat().map(String)),
              special,
            ),
            { maxLength: 3 },
          )
          .map((edits) =>
            edits.reduce<unknown>(
              (v, [path, kind, key, replacement]) => edit(v, path, kind, key, replacement),
              structuredClone(base),
            ),
          );
      });
      fc.assert(
        fc.property(fc.oneof(value, special), (v) => agrees(write, v)),
        { numRuns: 400 },
      );
    },
  );

  it('leave out keys an object inherits, as JSON.stringify does', () => {
    // A map of strings (no method's result has one) compiled on its own: its values could be inherited strings.
    const result = {
      name: 'map',
      description: '',
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    };
    const { code, names } = writersCode([{ name: 'test.map', result }], {});
    const write = new Function('writeString', 'writeScalar', `${code.replace(/^export /gm, '')}\nreturn ${names[0]};`)(
      writeString,
      writeScalar,
    ) as (value: unknown) => string | undefined;
    const value = { own: 'a' };
    expect(write(value)).toBe('{"own":"a"}');
    Object.defineProperty(Object.prototype, 'inherited', {
      value: 'x',
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      expect(agrees(write, value)).toBe(true);
    } finally {
      delete (Object.prototype as Record<string, unknown>).inherited;
    }
  });

  it('follow the key order of the value, as JSON.stringify does', () => {
    const write = specs.get('avm.getBalance')!.writeResult!;
    const value = {
      utxoIDs: [{ outputIndex: 1, txID: 'WPQdyLNqHfiEKp4zcCpayRHYDVYuh1hqs9c1RqgZXS4VPgdvo' }],
      balance: '7',
    };
    expect(write(value)).toBe(JSON.stringify(value));
  });
});
