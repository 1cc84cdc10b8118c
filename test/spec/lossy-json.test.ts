/**
 * Values JSON.parse takes without complaint but cannot keep: a number too large for a double (`1e400` parses as
 * Infinity, which JSON.stringify writes as `null`: the bundle would fail OpenRPC's meta-schema, the client would type
 * the param `null`, the server's validator would hold `"maximum": null`), and a key written twice in one object
 * (JSON.parse keeps the last, other readers the first). Either is refused as a spec problem at its file and pointer,
 * and nothing is generated.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../generators/load/index.ts';
import { generate } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'lossy-json-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Generates a spec folder holding `files` (name -> text); the output folder and the message of the SpecError. */
async function refusal(name: string, files: Record<string, string>): Promise<{ out: string; message: string }> {
  const spec = join(temp, name, 'spec');
  const out = join(temp, name, 'out');
  mkdirSync(join(spec, 'lib'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(spec, file), text);
  const error = await generate({ spec, out }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SpecError);
  expect(existsSync(out)).toBe(false);
  return { out, message: (error as Error).message };
}

/** A one-method document's text; `param` is the param object's JSON text, written as is. */
const documentWithParam = (param: string) =>
  `{"openrpc":"1.3.2","info":{"title":"Values","version":"1.0.0"},"methods":[{"name":"values_get","params":[${param}],` +
  `"result":{"name":"r","schema":{"type":"string"}}}]}`;

describe('a number beyond a double', () => {
  it('is refused at each place it is written (maximum, default, an enum member, negative too)', async () => {
    const text = documentWithParam(
      '{"name":"x","schema":{"type":"number","maximum":1e400,"default":-2E+999,"enum":[2, 1.5e400]}}',
    );
    const { message } = await refusal('huge-number', { 'p.json': text });
    const at = 'p.json#/methods/0/params/0/schema';
    expect(message).toContain(`${at}/maximum: the number 1e400 is beyond what a double holds`);
    expect(message).toContain(`${at}/default: the number -2E+999`);
    expect(message).toContain(`${at}/enum/1: the number 1.5e400`);
    expect(message).not.toContain(`${at}/enum/0`);
  });

  it('is not a large number a double holds, nor text that looks like one inside a string', async () => {
    const text = documentWithParam(
      '{"name":"x","description":"up to 1e400 \\" 1e400","schema":{"type":"number","maximum":1.7976931348623157e308}}',
    );
    const spec = join(temp, 'large-number', 'spec');
    mkdirSync(spec, { recursive: true });
    writeFileSync(join(spec, 'p.json'), text);
    const out = join(temp, 'large-number', 'out');
    await generate({ spec, out, artifacts: ['client'] });
    expect(existsSync(join(out, 'client'))).toBe(true);
  });
});

describe('a key written twice in one object', () => {
  it('is refused at its pointer, not read as whichever came last', async () => {
    const text =
      '{"openrpc":"1.3.2","info":{"title":"Values","version":"1.0.0"},' +
      '"methods":[{"name":"values_get","name":"values_delete","params":[],"result":{"name":"r","schema":{"type":"string"}}}]}';
    const { message } = await refusal('duplicate-key', { 'p.json': text });
    expect(message).toContain('p.json#/methods/0/name: key "name" is written twice in this object');
  });

  it('is refused in a file a $ref reaches, at that file and pointer; the same key in two objects is no repeat', async () => {
    const text = documentWithParam('{"name":"x","schema":{"$ref":"./lib/defs.json#/definitions/Id"}}');
    const defs =
      '{"definitions":{"Id":{"type":"string","title":"a"},"Other":{"type":"string","title":"b"},' +
      '"Id":{"type":"integer"}}}';
    const { message } = await refusal('duplicate-in-ref', { 'p.json': text, 'lib/defs.json': defs });
    expect(message).toContain('lib/defs.json#/definitions/Id: key "Id" is written twice');
    expect(message).not.toContain('/title');
    expect(message).toContain('1 problem');
  });
});
