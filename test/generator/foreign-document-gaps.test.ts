/**
 * What public and hostile documents found wrong in the generator: a gap is written here as `it.fails`, naming its
 * cause, and loses the `.fails` once the cause is fixed; each test below was one and passes now.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';

const temp = mkdtempSync(join(tmpdir(), 'foreign-gaps-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function folderWith(name: string, document: object): string {
  const dir = join(temp, name);
  mkdirSync(dir);
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(document));
  return dir;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `S0` a string, each `S<i>` an object whose `prev` is `S<i-1>`; method `m_<i>` takes `S<i>`. */
function chain(length: number): object {
  const schemas: Record<string, object> = { S0: { type: 'string' } };
  for (let i = 1; i < length; i++) schemas[`S${i}`] = { type: 'object', properties: { prev: ref(`S${i - 1}`) } };
  const methods = Array.from({ length }, (_, i) => ({
    name: `m_${i}`,
    params: [{ name: 'x', schema: ref(`S${i}`) }],
    result: { name: 'r', schema: { type: 'string' } },
  }));
  return { openrpc: '1.3.2', info: { title: 'Chain', version: '1.0.0' }, methods, components: { schemas } };
}

async function sizeOf(dir: string, artifact: 'server' | 'docs'): Promise<number> {
  const files = await renderArtifacts(loadModel(dir), { artifacts: [artifact] });
  return files
    .filter((f) =>
      artifact === 'server'
        ? f.path.startsWith('server/src/') && !f.path.startsWith('server/src/runtime/')
        : f.path.endsWith('.html'),
    )
    .reduce((sum, f) => sum + String(f.contents).length, 0);
}

describe('foreign documents: known gaps', () => {
  // ChainSafe/filecoin-openrpc-spec schemas/forest-45e7c88c97c.json (commit 15f01745) has both `Int64` (a string)
  // and `int64` (an integer), which the one naming rule (model/names.ts schemaTypeName) both makes `Int64`: the model
  // decides every component's type name knowing all of them (`Int64`, `Int64_2`); test/generator/component-names.test.ts
  // covers each artifact.
  it('generates a document with components Int64 and int64 (Filecoin Forest)', async () => {
    const dir = folderWith('forest', {
      openrpc: '1.3.2',
      info: { title: 'Forest', version: '1.0.0' },
      methods: [
        {
          name: 'get',
          params: [{ name: 'a', schema: ref('Int64') }],
          result: { name: 'r', schema: ref('int64') },
        },
      ],
      components: { schemas: { Int64: { type: 'string' }, int64: { type: 'integer', format: 'int64' } } },
    });
    const files = await renderArtifacts(loadModel(dir), { artifacts: ['client'] });
    expect(files.map((f) => f.path)).toContain('client/src/types.ts');
  });

  // A server URL whose path holds a quote (`/');globalThis.x=1;('`, a valid URI) must not make the README's sample run
  // code when pasted: the view gives the path as a JavaScript string literal (generators/server/view.ts readmeExample).
  it("writes a server URL's path into the server README's sample as a string literal", async () => {
    const dir = folderWith('quoted', {
      openrpc: '1.3.2',
      info: { title: 'Quoted', version: '1.0.0' },
      servers: [{ name: 's', url: "http://127.0.0.1:1/');globalThis.ran=1;('" }],
      methods: [{ name: 'get', params: [], result: { name: 'r', schema: { type: 'string' } } }],
    });
    const files = await renderArtifacts(loadModel(dir), { artifacts: ['server'] });
    const readme = String(files.find((f) => f.path === 'server/README.md')!.contents);
    const sample = readme.split('\n').find((line) => line.includes('createRouter({'))!;
    // Parsed, never run: the router's key must be the path, one string literal.
    let key: string | undefined;
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node) && key === undefined) {
        const first = node.properties[0];
        key = first && ts.isPropertyAssignment(first) && ts.isStringLiteral(first.name) ? first.name.text : '';
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile('sample.ts', sample, ts.ScriptTarget.ES2022));
    expect(key).toBe("/');globalThis.ran=1;('");
  });

  // Was a gap: generators/server/shapes.ts wrote each method's decoding shape with every $ref written out and nested,
  // so a chain of N components, each a method's param, made the server's source grow with N^3 (191 KB for 25
  // components, 10.6 MB for 100). Now a shape per component is written once and referred to by name.
  it("grows the server's source in proportion to a chain of components", { timeout: 120_000 }, async () => {
    const small = await sizeOf(folderWith('chain-12', chain(12)), 'server');
    const large = await sizeOf(folderWith('chain-24', chain(24)), 'server');
    expect(large / small).toBeLessThan(2.5);
  });

  // Was a gap: generators/docs wrote each method's param tree with every $ref written out, and listed under each type
  // every method reaching it through others, so the same chain made the docs grow with N^2. Now a named type past the
  // first level is a link to its entry on the types page, and a type lists the methods and types that name it.
  it('grows the docs in proportion to a chain of components', { timeout: 120_000 }, async () => {
    const small = await sizeOf(folderWith('docs-chain-12', chain(12)), 'docs');
    const large = await sizeOf(folderWith('docs-chain-24', chain(24)), 'docs');
    expect(large / small).toBeLessThan(2.5);
  });
});
