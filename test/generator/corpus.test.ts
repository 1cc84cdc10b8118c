/**
 * Public OpenRPC documents no one here wrote (test/fixtures/corpus, sources in its README) generate every artifact:
 * the client and the server compile under strict TypeScript, its names are pinned in a golden (`types.golden.txt` beside the
 * document; `UPDATE_GOLDENS=1` rewrites it), the docs site renders a page per endpoint, and the server stubs with
 * the example handler set answer an example call in the jsonrpc2 profile, a foreign document's default.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import type { GeneratedFile } from '../../generators/emit/files.ts';
import { clientClassName, serverNames } from '../../generators/model/names.ts';
import type { SpecModel } from '../../generators/model/types.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';
import { listen } from '../support/rpc.ts';
import { strictDiagnostics } from './strict-diagnostics.ts';
import { wideLines } from '../support/wide-lines.ts';

/**
 * Public documents as published, and the field's shapes written small here (test/fixtures/field: refs into
 * properties, alias components, namespaced methods, OpenRPC 1.4 with relative links, a `$schema` member, examples
 * that do not validate, names in any script).
 */
const FOLDERS = ['test/fixtures/corpus', 'test/fixtures/field'];
const UPDATE = process.env.UPDATE_GOLDENS === '1';
const documents = FOLDERS.flatMap((folder) =>
  readdirSync(folder, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(folder, e.name))
    .sort(),
);
const out = mkdtempSync(join(tmpdir(), 'corpus-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const generated = new Map<string, { model: SpecModel; files: GeneratedFile[] }>();
async function generate(name: string) {
  if (!generated.has(name)) {
    const model = loadModel(name);
    const files = await renderArtifacts(model);
    for (const file of files) {
      mkdirSync(dirname(join(out, name, file.path)), { recursive: true });
      writeFileSync(join(out, name, file.path), file.contents);
    }
    generated.set(name, { model, files });
  }
  return generated.get(name)!;
}

/** Every name a user of the client meets: client classes with their methods, and every exported type. */
function names(model: SpecModel, files: GeneratedFile[]): string {
  const lines: string[] = [];
  for (const endpoint of model.endpoints) {
    lines.push(`class ${clientClassName(endpoint.typeName)}`);
    for (const method of endpoint.methods) lines.push(`  ${method.shortName} = ${method.name}`);
  }
  const types = String(files.find((f) => f.path === 'client/src/types.ts')!.contents);
  for (const [, kind, name] of types.matchAll(/^export (type|interface) ([\p{ID_Continue}$]+)/gmu))
    lines.push(`${kind} ${name}`);
  return `${lines.join('\n')}\n`;
}

describe('public OpenRPC documents', () => {
  it('the corpus has documents from several projects', () => {
    expect(documents.filter((name) => name.startsWith(FOLDERS[0]!)).length).toBeGreaterThanOrEqual(8);
  });

  it.each(documents)(
    '%s: every artifact, names pinned, docs rendered, server answers an example',
    { timeout: 120_000 },
    async (name) => {
      const { model, files } = await generate(name);
      const paths = files.map((f) => f.path);
      for (const endpoint of model.endpoints) {
        expect(paths).toContain(`client/src/${endpoint.name}.ts`);
        expect(paths).toContain(`server/src/${endpoint.name}.ts`);
        expect(paths).toContain(`openrpc/${endpoint.name}.json`);
        expect(String(files.find((f) => f.path === `docs/${endpoint.name}.html`)?.contents)).toContain(
          endpoint.methods[0]?.name ?? '',
        );
      }

      for (const file of files.filter((f) => /\.(ts|js)$/.test(f.path)))
        expect(wideLines(String(file.contents), { quotedCode: true }), `${name}: ${file.path}`).toEqual([]);

      const golden = join(name, 'types.golden.txt');
      if (UPDATE) writeFileSync(golden, names(model, files));
      expect(names(model, files), `${golden} is stale; UPDATE_GOLDENS=1 rewrites it`).toBe(
        readFileSync(golden, 'utf8'),
      );

      // The server package, as generated, with its classic mock (exampleHandlers) served over HTTP at the path its
      // ENDPOINTS table gives, answers the generated client's call of an example with its result.
      const server = await import(pathToFileURL(join(out, name, 'server/dist/index.js')).href);
      const client = await import(pathToFileURL(join(out, name, 'client/dist/index.js')).href);
      for (const endpoint of model.endpoints) {
        const names = serverNames(endpoint.typeName);
        const create = server[names.create] as (h: object) => { fetch: (r: Request) => Promise<Response> };
        const app = create(server.exampleHandlers(server[names.document], server[names.methods]));
        const method = endpoint.methods.find((m) => m.examples.length > 0 && m.result);
        if (!method) continue;
        const example = method.examples[0]!;
        const http = await listen(server.createRouter({ [server.ENDPOINTS[endpoint.name].path]: app }).node);
        try {
          const sender = new client[clientClassName(endpoint.typeName)]({ baseUrl: http.url });
          const params = Array.isArray(example.params)
            ? Object.fromEntries(example.params.map((value, i) => [method.params[i]!.name, value]))
            : example.params;
          expect(await sender[method.shortName](params)).toEqual(example.result);
        } finally {
          await http.close();
        }
        // An unknown method is refused as JSON-RPC 2.0 says, not as AvalancheGo does.
        const unknown = await app.fetch(
          new Request('http://127.0.0.1/', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no_such_method' }),
          }),
        );
        expect((await unknown.json()).error.code).toBe(-32601);
      }
    },
  );

  it('every client and server compiles under strict TypeScript', { timeout: 600_000 }, async () => {
    for (const name of documents) await generate(name);
    const files = ts.sys.readDirectory(out, ['.ts']).filter((file) => /\/(client|server)\/src\//.test(file));
    // The server packages import their dependencies (ajv, …), found from the temporary folder as an install would.
    if (!existsSync(join(out, 'node_modules'))) symlinkSync(resolve('node_modules'), join(out, 'node_modules'), 'dir');
    const found = strictDiagnostics(files);
    expect(files.length).toBeGreaterThan(0);
    expect(found.count, found.text).toBe(0);
  });
});
