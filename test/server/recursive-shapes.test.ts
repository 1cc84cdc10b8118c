/**
 * The node profile's decoding of recursive components, through a server package generated from them: a shape per
 * component, referred to by name (generators/server/shapes.ts), so a tree's keys are matched case-insensitively at
 * every depth, as Go's encoding/json fills a recursive struct, and an alias or a nullable union decodes as its target.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, send } from '../support/rpc.ts';
import { importServerPackage } from '../support/server-package.ts';

const temp = mkdtempSync(join(tmpdir(), 'recursive-shapes-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const document = {
  openrpc: '1.3.2',
  info: { title: 'Trees', version: '1.0.0' },
  servers: [{ name: 'trees', url: 'http://127.0.0.1:9650/rpc' }],
  methods: [
    {
      name: 'trees.put',
      params: [
        { name: 'tree', schema: ref('Tree') },
        { name: 'alias', schema: ref('Alias') },
        { name: 'leaf', schema: ref('MaybeLeaf') },
      ],
      result: { name: 'ok', schema: { type: 'boolean' } },
    },
  ],
  components: {
    schemas: {
      Tree: {
        type: 'object',
        properties: {
          label: { type: 'string' },
          children: { type: 'array', items: ref('Tree') },
          byName: { type: 'object', additionalProperties: ref('Tree') },
        },
      },
      Alias: ref('Tree'),
      Leaf: { type: 'object', properties: { value: { type: 'string' }, next: ref('MaybeLeaf') } },
      MaybeLeaf: { anyOf: [ref('Leaf'), { type: 'null' }] },
    },
  },
};

describe('a server generated from recursive components', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  const seen: unknown[] = [];

  beforeAll(async () => {
    const spec = join(temp, 'spec');
    mkdirSync(spec);
    writeFileSync(join(spec, 'trees.json'), JSON.stringify(document));
    const pkg = await importServerPackage<{
      createTreesEndpoint: (handlers: object, options?: object) => object;
      createRouter: (routes: object) => { node: unknown };
    }>(spec, join(temp, 'package'), 'recursive-shapes.test');
    const handlers = {
      put: (params: unknown) => {
        seen.push(params);
        return true;
      },
    };
    server = await listen(
      pkg.createRouter({ '/rpc': pkg.createTreesEndpoint(handlers, { profile: 'node' }) }).node as never,
    );
  }, 120_000);
  afterAll(() => server?.close());

  it('matches keys case-insensitively at every depth of a recursive type, through an alias and a nullable union', async () => {
    const deep = { LABEL: 'a', Children: [{ label: 'b', CHILDREN: [{ Label: 'c' }] }], byname: { x: { LABEL: 'd' } } };
    const params = {
      Tree: deep,
      ALIAS: { label: 'e', children: [{ LABEL: 'f' }] },
      leaf: { VALUE: '1', Next: { value: '2', NEXT: null } },
    };
    const answer = JSON.parse(
      (
        await send(server.port, {
          path: '/rpc',
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'trees.put', params }),
        })
      ).text,
    );
    expect(answer).toMatchObject({ result: true });
    expect(seen.at(-1)).toEqual({
      tree: { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }], byName: { x: { label: 'd' } } },
      alias: { label: 'e', children: [{ label: 'f' }] },
      leaf: { value: '1', next: { value: '2', next: null } },
    });
  });

  it('refuses a tree nested deeper than its validator can follow as invalid params, and keeps serving', async () => {
    // Go decodes up to 10,000 levels; ajv's validators recurse, and the stack ends before that.
    const depth = 4900;
    const tree = `${'{"children":['.repeat(depth)}{"label":"leaf"}${']}'.repeat(depth)}`;
    const deep = await send(server.port, {
      path: '/rpc',
      body: `{"jsonrpc":"2.0","id":1,"method":"trees.put","params":{"tree":${tree}}}`,
    });
    expect(deep.status).toBe(200);
    expect(JSON.parse(deep.text)).toMatchObject({ error: { code: -32000, message: 'Invalid params' } });
    const after = await send(server.port, {
      path: '/rpc',
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'trees.put', params: { tree: { label: 'x' } } }),
    });
    expect(JSON.parse(after.text)).toMatchObject({ result: true });
  });
});
