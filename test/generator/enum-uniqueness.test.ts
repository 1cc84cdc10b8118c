/**
 * The meta-schema's `uniqueItems` on a schema's `enum`, checked in linear time (load/meta-schema.ts): ajv compares
 * untyped items pair by pair, and a 100,000-value enum kept the loader busy for a minute (200,000: four). A repeated
 * value is still refused at the enum's pointer, with ajv's own wording.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ENUM } from '../../generators/load/depth.ts';
import { SpecError, loadSpec } from '../../generators/load/index.ts';
import { checkDocument } from '../../generators/load/meta-schema.ts';

const temp = mkdtempSync(join(tmpdir(), 'enum-uniqueness-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function documentWithEnum(name: string, values: unknown[]): string {
  mkdirSync(join(temp, name));
  const file = join(temp, name, `${name}.json`);
  const method = { name: 'm', params: [{ name: 'p', schema: { enum: values } }], result: { name: 'r', schema: {} } };
  writeFileSync(file, JSON.stringify({ openrpc: '1.3.2', info: { title: name, version: '1' }, methods: [method] }));
  return file;
}

describe("a schema's enum, as the meta-schema checks it", () => {
  it('refuses a value given twice, objects with their keys in another order included, at the enum', () => {
    const file = documentWithEnum('twice', ['a', { x: 1, y: [2] }, 'b', { y: [2], x: 1 }]);
    const error = (() => {
      try {
        loadSpec([file]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).problems).toEqual([
      {
        file: expect.stringMatching(/twice\.json$/),
        pointer: '/methods/0/params/0/schema/enum',
        message: 'OpenRPC meta-schema: must NOT have duplicate items (items ## 1 and 3 are identical)',
      },
    ]);
  });

  // The loader reads enums of up to MAX_ENUM values (load/depth.ts); the meta-schema's check itself stays linear.
  it('checks an enum of 200,000 distinct values', { timeout: 60_000 }, () => {
    const values = Array.from({ length: 200_000 }, (_, i) => (i % 2 ? `v${i}` : { v: i }));
    const method = { name: 'm', params: [{ name: 'p', schema: { enum: values } }], result: { name: 'r', schema: {} } };
    expect(checkDocument({ openrpc: '1.3.2', info: { title: 'large', version: '1' }, methods: [method] })).toEqual([]);
  });

  it('reads an enum as long as the loader takes', () => {
    const values = Array.from({ length: MAX_ENUM }, (_, i) => (i % 2 ? `v${i}` : { v: i }));
    const [bundle] = loadSpec([documentWithEnum('longest', values)]);
    expect(bundle!.name).toBe('longest');
  });
});
