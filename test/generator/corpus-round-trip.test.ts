/**
 * Every document of test/fixtures/corpus and test/fixtures/field as a user takes it through the whole toolchain:
 * generate, type-check the server package's sources under `strict` (corpus.test.ts does the client's), then serve the
 * server stubs with the example handlers on 127.0.0.1 and call a method that has an example through the generated
 * client's typed method, over HTTP: it answers the example's result.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { clientClassName, serverNames } from '../../generators/model/names.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';
import { strictDiagnostics } from './strict-diagnostics.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const documents = ['test/fixtures/corpus', 'test/fixtures/field'].flatMap((folder) =>
  readdirSync(folder, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(folder, e.name))
    .sort(),
);
// Inside the toolkit's node_modules, so that the server package's sources resolve ajv and re2js as an install would.
const cache = join(ROOT, 'node_modules/.cache');
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(join(cache, 'corpus-round-trip-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function generated(name: string) {
  const model = loadModel(name);
  for (const file of await renderArtifacts(model, { artifacts: ['client', 'server'] })) {
    mkdirSync(dirname(join(out, name, file.path)), { recursive: true });
    writeFileSync(join(out, name, file.path), file.contents);
  }
  return model;
}

const listening = (server: Server) =>
  new Promise<number>((done) => server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port)));

describe('public and field documents, generated, compiled and called', () => {
  it.each(documents)('%s: the client calls the server stubs over HTTP', { timeout: 120_000 }, async (name) => {
    const model = await generated(name);
    const server = await import(pathToFileURL(join(out, name, 'server/dist/index.js')).href);
    const client = await import(pathToFileURL(join(out, name, 'client/dist/index.js')).href);
    let called = 0;
    for (const endpoint of model.endpoints) {
      const method = endpoint.methods.find((m) => m.examples.length > 0 && m.result);
      if (!method) continue;
      const names = serverNames(endpoint.typeName);
      const handlers = server.exampleHandlers(server[names.document], server[names.methods]);
      const http = createServer(
        server.createRouter({ [endpoint.defaultPath || '/']: server[names.create](handlers) }).node,
      );
      try {
        const port = await listening(http);
        const Client = client[clientClassName(endpoint.typeName)];
        const example = method.examples[0]!;
        const result = await new Client({ baseUrl: `http://127.0.0.1:${port}` })[method.shortName](example.params);
        expect(result).toEqual(example.result);
        called++;
      } finally {
        http.close();
      }
    }
    const withExamples = model.endpoints.filter((e) => e.methods.some((m) => m.examples.length > 0 && m.result));
    expect(called).toBe(withExamples.length);
  });

  it('every server package type-checks under strict TypeScript', { timeout: 600_000 }, async () => {
    for (const name of documents) if (!existsSync(join(out, name, 'server'))) await generated(name);
    const files = ts.sys.readDirectory(out, ['.ts']).filter((file) => /\/server\/src\//.test(file));
    const found = strictDiagnostics(files);
    expect(files.length).toBeGreaterThan(documents.length);
    expect(found.count, found.text).toBe(0);
  });
});
