/** The types generator on the real spec and on small schemas: wire types, names, documentation, loud failures. */
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../generators/pipeline.ts';
import { compileAndPrintTypes } from '../../generators/types/compile.ts';
import { renderTypes } from '../../generators/types/index.ts';

const spec = loadModel('openrpc');
const { source, names } = await renderTypes(spec);

/** The text of one exported declaration, JSDoc included. */
function declaration(name: string): string {
  const start = source.search(new RegExp(`(/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/\\n)?export (interface|type) ${name}\\b`));
  expect(start, `no declaration of ${name}`).toBeGreaterThanOrEqual(0);
  const end = source.indexOf('\n\n', start);
  return source.slice(start, end < 0 ? undefined : end);
}

describe('types of the wire', () => {
  it.each([
    ['Uint64', 'export type Uint64 = string;'],
    ['Uint64Param', 'export type Uint64Param = string | number;'],
    ['BareUint64', 'export type BareUint64 = number;'],
    ['NullableHexNoChecksum', 'export type NullableHexNoChecksum = HexNoChecksum | null;'],
  ])('%s', (name, expected) => {
    expect(declaration(name)).toContain(expected);
  });

  it('keeps decimal strings as strings in results and lists that may be null as T[] | null', () => {
    expect(declaration('PlatformGetBalanceResult')).toMatch(/\n {2}balance: Uint64;/);
    expect(declaration('PlatformGetBalanceResult')).toMatch(/\n {2}utxoIDs: UTXOID\[\] \| null;/);
  });

  it('takes integer params as string or number', () => {
    expect(declaration('PlatformGetBlockByHeightParams')).toMatch(/\n {2}height: Uint64Param;/);
  });

  it('names params and results <Service><Method>Params/Result and titled inline schemas by their title', () => {
    for (const name of [
      'PlatformGetHeightResult',
      'PlatformGetBalanceParams',
      'AvmGetUTXOsResult',
      'AdminAliasParams',
      'KeystoreListUsersResult',
      'PlatformValidatorAtHeight',
      'PlatformValidatorSetHeight',
    ]) {
      expect(names).toContain(name);
    }
    expect(declaration('PlatformGetValidatorsAtParams')).toMatch(/height: PlatformValidatorSetHeight;/);
    expect(declaration('PlatformValidatorSetHeight')).toContain('= Uint64Param | "proposed";');
  });

  it('never invents a numbered name and declares each name once', () => {
    expect(new Set(names).size).toBe(names.length);
    const declared = [...source.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    expect(declared).toEqual(names);
    for (const name of names)
      expect(
        names.includes(name.replace(/\d+$/, '')) && /\D\d+$/.test(name) && !/Uint\d+|Base\d+|\d+Param/.test(name),
        name,
      ).toBe(false);
  });

  it('documents fields from descriptions', () => {
    expect(declaration('PlatformGetBalanceResult')).toContain(
      '   * The UTXOs that were counted, or `null` when there are none.\n   */\n  utxoIDs',
    );
  });

  it('marks deprecated params and fields @deprecated, after their description', async () => {
    const legacy = (await renderTypes(loadModel('test/fixtures/golden/deprecated-method'))).source;
    expect(legacy).toContain('   * Ignored since v1.8.0.\n   *\n   * @deprecated\n   */\n  format?: string;');
    expect(legacy).toContain('   * The value in the old form.\n   *\n   * @deprecated\n   */\n  legacyValue?: string;');
  });

  it('puts every method of the spec in: a Result per method, a Params per method with params', () => {
    for (const method of spec.endpoints.flatMap((e) => e.methods)) {
      expect(names).toContain(method.typeNames.result);
      if (method.params.length > 0) expect(names).toContain(method.typeNames.params);
      else expect(names).not.toContain(method.typeNames.params);
    }
  });
});

describe('the compiler configuration', () => {
  it('fails loudly when json-schema-to-typescript would declare more than the one type asked for', async () => {
    const schema = {
      type: 'object',
      properties: { inner: { title: 'Inner', type: 'object', properties: { a: { type: 'string' } } } },
    };
    await expect(compileAndPrintTypes([{ name: 'Outer', schema }], 'outer.ts')).rejects.toThrow(
      /declared Outer, Inner for the type Outer; expected exactly one declaration/,
    );
  });

  it('keeps the name decided by the spec when the compiler would spell it differently', async () => {
    const output = await compileAndPrintTypes([{ name: 'uint64', schema: { type: 'string' } }], 'uint64.ts');
    expect(output).toMatch(/export type uint64 = string/);
  });
});
