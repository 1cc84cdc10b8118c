import { cpSync, mkdtempSync, readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpecError, loadSpec } from '../../generators/load/index.ts';
import { generate } from '../../generators/pipeline.ts';

const VALID = join(import.meta.dirname, '../fixtures/spec/valid');

/** A fresh copy of the valid fixture with one file changed by `mutate`. */
// biome-ignore lint/suspicious/noExplicitAny: each test breaks the JSON its own way, at any depth
function brokenCopy(file: string, mutate: (json: Record<string, any>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'spec-'));
  cpSync(VALID, dir, { recursive: true });
  const path = join(dir, file);
  const json = JSON.parse(readFileSync(path, 'utf8'));
  mutate(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
  return join(dir, 'demo.json');
}

function problemsOf(docFile: string) {
  try {
    loadSpec([docFile]);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as SpecError).problems;
  }
  throw new Error('the broken spec was accepted');
}

describe('a broken spec is rejected with the file and JSON pointer', () => {
  it('accepts the valid fixture', () => {
    expect(loadSpec([join(VALID, 'demo.json')])).toHaveLength(1);
  });

  it('names a broken $ref', () => {
    const doc = brokenCopy('methods/demo/getTx.json', (m) => {
      m.params[0].schema.$ref = '../../components/shared.json#/schemas/Nope';
    });
    const [problem] = problemsOf(doc);
    expect(problem!.file).toMatch(/methods\/demo\/getTx\.json$/);
    expect(problem!.pointer).toBe('/params/0/schema/$ref');
    expect(problem!.message).toMatch(/broken \$ref .*Nope.* does not exist/);
  });

  it('names a missing method file', () => {
    const doc = brokenCopy('demo.json', (d) => {
      d.methods[1].$ref = './methods/demo/missing.json';
    });
    const [problem] = problemsOf(doc);
    expect(problem!.file).toMatch(/demo\.json$/);
    expect(problem!.pointer).toBe('/methods/1/$ref');
  });

  it('names a duplicate method', () => {
    const doc = brokenCopy('methods/demo/getTx.json', (m) => {
      m.name = 'demo.getHeight';
    });
    const messages = problemsOf(doc).map((p) => `${p.file}#${p.pointer}: ${p.message}`);
    expect(messages.some((m) => /getTx\.json#\/name: method "demo\.getHeight" is already defined/.test(m))).toBe(true);
  });

  it('names an invalid schema', () => {
    const doc = brokenCopy('methods/demo/getHeight.json', (m) => {
      m.result.schema.properties.height = { type: 'strnig' };
    });
    const problems = problemsOf(doc);
    expect(problems[0]!.file).toMatch(/getHeight\.json$/);
    expect(problems[0]!.pointer).toMatch(/^\/result\/schema/);
  });

  it('names an example that violates its schema, down to the value', () => {
    const doc = brokenCopy('methods/demo/getHeight.json', (m) => {
      m.examples[0].result.value.height = 42;
    });
    const [problem] = problemsOf(doc);
    expect(problem).toMatchObject({ pointer: '/examples/0/result/value/height', message: 'must be string' });
    expect(problem!.file).toMatch(/getHeight\.json$/);
  });

  it('checks the checksum of an example ID', () => {
    const doc = brokenCopy('methods/demo/getTx.json', (m) => {
      m.examples[0].params[0].value = '2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMn';
    });
    const [problem] = problemsOf(doc);
    expect(problem).toMatchObject({ pointer: '/examples/0/params/0/value', message: 'must match format "avax-cb58"' });
  });

  it('rejects a method removed in the release that introduced it', () => {
    const doc = brokenCopy('methods/demo/getHeight.json', (m) => {
      m['x-node-versions'] = { since: 'v1.10.0', removedIn: 'v1.10.0' };
    });
    expect(problemsOf(doc)).toEqual([
      expect.objectContaining({ pointer: '/x-node-versions', message: 'since must be before removedIn' }),
    ]);
  });

  it('checks a range on a method and on its parts alike: each bad tag, and the order of the good ones', () => {
    const range = { since: 'v1.12.0', removedIn: 'v1.11.0', lastVersion: 'soon', 'a/b': 'v1.0.0' };
    const onMethod = brokenCopy('methods/demo/getHeight.json', (m) => {
      m['x-node-versions'] = range;
    });
    const onParam = brokenCopy('methods/demo/getHeight.json', (m) => {
      m.params = [{ name: 'x', description: 'x', schema: { type: 'string' }, 'x-node-versions': range }];
    });
    const messages = (doc: typeof onMethod, at: string) =>
      problemsOf(doc)
        .filter((p) => p.pointer.startsWith(at))
        .map((p) => `${p.pointer.slice(at.length)}: ${p.message}`);
    const expected = [
      '/lastVersion: must be a release tag such as "v1.12.2"',
      '/a~1b: unknown key; expected one of since, deprecatedSince, lastVersion, removedIn',
      ': since must be before removedIn',
    ];
    expect(messages(onMethod, '/x-node-versions')).toEqual(expected);
    expect(messages(onParam, '/params/0/x-node-versions')).toEqual(expected);
  });

  it('rejects a deprecation before the method existed', () => {
    const doc = brokenCopy('methods/demo/getHeight.json', (m) => {
      m.deprecated = true;
      m['x-replacement'] = 'demo.getTx';
      m['x-node-versions'] = { since: 'v1.11.13', deprecatedSince: 'v1.9.12' };
    });
    expect(problemsOf(doc)).toEqual([
      expect.objectContaining({ pointer: '/x-node-versions', message: 'deprecatedSince must not be before since' }),
    ]);
  });

  it('asks a deprecated method with node versions for the release that deprecated it', () => {
    const doc = brokenCopy('methods/demo/getHeight.json', (m) => {
      m.deprecated = true;
      m['x-replacement'] = 'demo.getTx';
      m['x-node-versions'] = { since: 'v1.9.12' };
    });
    expect(problemsOf(doc)).toEqual([
      expect.objectContaining({
        pointer: '/x-node-versions',
        message: 'a deprecated method with node versions must give deprecatedSince',
      }),
    ]);
  });

  it('names a component defined in a shared file with a broken inner $ref', () => {
    const doc = brokenCopy('components/shared.json', (c) => {
      c.schemas.Height = { $ref: '#/schemas/Missing' };
    });
    const [problem] = problemsOf(doc);
    expect(problem!.file).toMatch(/components\/shared\.json$/);
    expect(problem!.pointer).toBe('/schemas/Height/$ref');
  });

  it('rejects a server URL that is not a URI, while allowing server variables', () => {
    const doc = brokenCopy('demo.json', (d) => {
      d.servers[0].url = '{baseUrl}/ext/demo';
    });
    expect(problemsOf(doc)[0]).toMatchObject({
      pointer: '/servers/0/url',
      message: 'OpenRPC meta-schema: must match format "uri"',
    });
    const templated = brokenCopy('demo.json', (d) => {
      d.servers[0].url = 'http://127.0.0.1:9650/ext/bc/{chain}';
      d.servers[0].variables = { chain: { default: 'X' } };
    });
    expect(loadSpec([templated])).toHaveLength(1);
  });

  it('reports a JSON syntax error with its line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spec-'));
    cpSync(VALID, dir, { recursive: true });
    writeFileSync(join(dir, 'methods/demo/getTx.json'), '{\n  "name": "demo.getTx",\n}');
    const [problem] = problemsOf(join(dir, 'demo.json'));
    expect(problem!.message).toMatch(/invalid JSON \(line 3/);
  });

  it('leaves the output folder untouched when the spec is broken', async () => {
    const doc = brokenCopy('methods/demo/getHeight.json', (m) => {
      m.examples[0].result.value.height = 42;
    });
    const out = mkdtempSync(join(tmpdir(), 'out-'));
    writeFileSync(join(out, 'keep.txt'), 'user file');
    await expect(generate({ spec: doc, out })).rejects.toBeInstanceOf(SpecError);
    expect(readdirSync(out)).toEqual(['keep.txt']);
  });
  it('checks the ranges of params, fields, enum values, result shapes and changes', () => {
    const doc = brokenCopy('methods/demo/getTx.json', (m) => {
      m['x-node-versions'] = { since: 'v1.10.0' };
      m.params[0]['x-node-versions'] = { since: 'v1.9.0' };
      m.result.schema.properties.txID['x-node-versions'] = { since: 'v1.12.0', removedIn: 'v1.11.0' };
      m.result.schema.properties.status = {
        type: 'string',
        enum: ['A'],
        'x-enum-versions': { B: { since: 'v1.11.0' } },
        description: 's',
      };
      m['x-result-history'] = [
        { 'x-node-versions': { removedIn: 'v1.11.0' }, schema: { type: 'object' } },
        { 'x-node-versions': { removedIn: 'v1.12.0' }, schema: { type: 'object' } },
      ];
      m['x-changes'] = [
        { version: 'v1.12.0', description: 'x', pointers: ['/result/schema/properties/txID'] },
        { version: 'v1.11.0', description: 'y', pointers: ['/result/schema/properties/nope'] },
        { version: 'v1.11.5', description: 'z' },
      ];
    });
    const messages = problemsOf(doc).map((p) => `${p.pointer}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        "/params/0/x-node-versions: since v1.9.0 is before the method's own since v1.10.0",
        '/result/schema/properties/txID/x-node-versions: since must be before removedIn',
        '/result/schema/properties/status/x-enum-versions/B: "B" is not a value of the enum',
        '/x-result-history/1/x-node-versions: overlaps another entry of x-result-history',
        '/x-changes/1/version: x-changes must be in release order',
        '/x-changes/1/pointers/0: /result/schema/properties/nope does not resolve to anything in demo.getTx',
        expect.stringMatching(/^\/x-changes\/2\/pointers: a change must point/),
      ]),
    );
  });

  it('checks x-copy-of: a sibling that exists, of the same schema, on a field with a release range', () => {
    const copy = (
      copyOf: unknown,
      schema: Record<string, unknown> = { $ref: '../../components/shared.json#/schemas/TxID' },
    ) => ({
      ...schema,
      description: 'An old name of txID.',
      'x-copy-of': copyOf,
      'x-node-versions': { removedIn: 'v1.12.0' },
    });
    const doc = brokenCopy('methods/demo/getTx.json', (m) => {
      const properties = m.result.schema.properties;
      properties.good = copy('txID');
      properties.missing = copy('transactionID');
      properties.number = copy(5);
      properties.itself = copy('itself');
      properties.wrongType = copy('txID', { type: 'integer' });
      properties.unranged = { ...copy('txID'), 'x-node-versions': undefined };
    });
    const problems = problemsOf(doc);
    expect(new Set(problems.map((p) => p.file.replace(/.*\/methods\//, '')))).toEqual(new Set(['demo/getTx.json']));
    expect(problems.map((p) => `${p.pointer}: ${p.message}`).sort()).toEqual([
      '/result/schema/properties/itself/x-copy-of: x-copy-of must name another property of the same object',
      '/result/schema/properties/missing/x-copy-of: x-copy-of must name another property of the same object',
      '/result/schema/properties/number/x-copy-of: x-copy-of must name another property of the same object',
      '/result/schema/properties/unranged/x-copy-of: x-copy-of belongs on a field with a release range ' +
        '(a historic field the mock fills from its source)',
      "/result/schema/properties/wrongType/x-copy-of: the copy's schema is not the schema of txID, whose value it " +
        'repeats',
      // Ajv's keyword check finds the number too, without the field's pointer; the rule above gives it.
      '/result/schema: invalid schema: x-copy-of value must be ["string"]',
    ]);
  });

  it('checks x-zero-when-absent: a required param, and a value its schema accepts', () => {
    const doc = brokenCopy('methods/demo/getTx.json', (m) => {
      m.params[0]['x-zero-when-absent'] = 'not-an-id';
      m.params.push({
        name: 'limit',
        required: false,
        'x-zero-when-absent': 0,
        description: 'How many.',
        schema: { type: 'integer' },
      });
    });
    const messages = problemsOf(doc).map((p) => `${p.pointer}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/params\/0\/x-zero-when-absent: /),
        '/params/1/x-zero-when-absent: only a required param says what the node decodes its absence to',
      ]),
    );
    expect(messages).toHaveLength(2);
  });
});
