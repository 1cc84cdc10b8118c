/**
 * The project's import graph keeps its layers: every relative import of every source file is read with the
 * TypeScript compiler's pre-processor, and what each layer can reach, directly or through others, is checked.
 * - Artifacts (generators/client, docs, server) do not import each other: what several need lives in
 *   generators/shared/ (the openrpc artifact is generators/shared/published.ts).
 * - The model knows neither how a spec is loaded nor how files are emitted; the loader knows nothing of the model:
 *   what both need (JSON pointers, release numbers, the bundled document's shape) lives in generators/common/.
 * - The mock's world (its state) does not reach the engine that changes it, nor the generated packages: what the
 *   world and the engine both use (avalanchejs, the bytes encodings) lives in mock/shared/, and the replies it writes
 *   are the runtime's RawJson.
 * - The runtime is copied into every generated package: it reaches nothing outside itself.
 * - Past the model, the spec is read through the model: no layer reads a document's or a method's extension raw, and
 *   the one document the model hands on (`EndpointModel.published`) is read only to be published.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCES = ['generators', 'runtime', 'mock', 'conform', 'diff'];

function sourcesOf(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** Each source file's relative imports (static, dynamic, re-exports, `import type`), as paths from the root. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of SOURCES.flatMap(sourcesOf)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    graph.set(
      file,
      importedFiles
        .map((imported) => imported.fileName)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier))),
    );
  }
  return graph;
}

const graph = importGraph();

/** Code that indexes a value by one of `keys` (`doc['x-mock-only']`), not code that merely lists a key. */
const indexedBy = (keys: string[]) => new RegExp(String.raw`[\w)\]]\[\s*['"](${keys.join('|')})['"]\s*\]`);

/** A source's tokens without its comments (which may name an extension, as this file's do). */
function tokensOf(text: string): Array<{ kind: ts.SyntaxKind; text: string }> {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const tokens = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan())
    tokens.push({ kind, text: scanner.getTokenText() });
  return tokens;
}

const withoutComments = (file: string): string =>
  tokensOf(readFileSync(join(ROOT, file), 'utf8'))
    .map((token) => token.text)
    .join('');

/** Whether source `text` names `name` as code (a property, a binding), not in a string or a comment. */
const namesInCode = (text: string, name: string): boolean =>
  tokensOf(text).some((token) => token.kind === ts.SyntaxKind.Identifier && token.text === name);

/** Files past the model (outside generators/model and generators/load). */
const pastTheModel = () => [...graph.keys()].filter((file) => !/^generators\/(model|load)\//.test(file));

/** Every file `file` reaches through imports, with the chain that reaches it. */
function reach(file: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[file, [file]]]);
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const next of graph.get(current) ?? []) {
      if (chains.has(next)) continue;
      chains.set(next, [...chains.get(current)!, next]);
      queue.push(next);
    }
  }
  chains.delete(file);
  return chains;
}

/**
 * Chains from files under `from` to files under any of `to` (not under `except`); with `direct`, single imports only.
 */
function crossings(from: string, to: string[], except: string[] = [], direct = false): string[] {
  const found: string[] = [];
  for (const file of graph.keys()) {
    if (!file.startsWith(`${from}/`)) continue;
    const targets = direct ? new Map((graph.get(file) ?? []).map((target) => [target, [file, target]])) : reach(file);
    for (const [target, chain] of targets) {
      if (to.some((layer) => target.startsWith(`${layer}/`)) && !except.some((e) => target.startsWith(`${e}/`)))
        found.push(chain.join(' -> '));
    }
  }
  return found;
}

const ARTIFACTS = ['client', 'docs', 'server'].map((name) => `generators/${name}`);

describe('import layers', () => {
  it('reads every source file and resolves its imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    const missing = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => !target.startsWith('generated/') && !graph.has(target)).map((t) => `${file}: ${t}`),
    );
    expect(missing).toEqual([]);
  });

  // Directly: each artifact reaches the others through the artifact table's types (generators/artifacts.ts).
  it.each(ARTIFACTS)('%s imports no other artifact', (artifact) => {
    expect(crossings(artifact, ARTIFACTS, [artifact], true)).toEqual([]);
  });

  it('the model reaches neither the loader nor emit', () => {
    expect(crossings('generators/model', ['generators/load', 'generators/emit'])).toEqual([]);
  });

  it('the loader does not reach the model', () => {
    expect(crossings('generators/load', ['generators/model'])).toEqual([]);
  });

  it('generators/common reaches only itself: it is what the loader and the model share', () => {
    expect(crossings('generators/common', ['generators', 'mock', 'conform', 'diff'], ['generators/common'])).toEqual(
      [],
    );
  });

  it("the mock's world does not reach its engine", () => {
    expect(crossings('mock/world', ['mock/engine'])).toEqual([]);
  });

  it("the mock's world does not reach the generated packages", () => {
    expect(crossings('mock/world', ['generated'])).toEqual([]);
  });

  it('the runtime reaches nothing outside itself', () => {
    for (const part of ['runtime/server', 'runtime/client'])
      expect(crossings(part, ['generators', 'mock', 'conform', 'diff', 'generated', 'runtime'], [part])).toEqual([]);
  });

  it("the spec's extensions are read in the model only: later layers read the model, not the raw document", () => {
    // Extensions of a document, a method, a param or an error (a schema's own, such as x-node-versions on a field,
    // travel with the schema). Read means indexed: `doc['x-mock-only']`.
    const extensions = [
      'x-mock-only',
      'x-aliases',
      'x-changes',
      'x-docs-discrepancies',
      'x-error-name',
      'x-side-effects',
      'x-pagination',
      'x-result-history',
      'x-replacement',
      'x-sensitive',
      'x-zero-when-absent',
    ];
    const read = indexedBy(extensions);
    expect(pastTheModel().filter((file) => read.test(withoutComments(file)))).toEqual([]);
  });

  it('past the model, the document it hands on is read only to be published', () => {
    // Every fact of the spec is a field of the model; the document itself is written out as it is, never searched.
    const readers = pastTheModel().filter((file) => namesInCode(readFileSync(join(ROOT, file), 'utf8'), 'published'));
    expect(readers).toEqual(['generators/shared/published.ts']);
  });

  it('a consumer past the model that reads the document is caught', () => {
    expect(namesInCode("walk(endpoint.published, 'x-changes')", 'published')).toBe(true);
    expect(namesInCode('const { published } = endpoint;', 'published')).toBe(true);
    expect(namesInCode("publishedPath(endpoint); log('published')", 'published')).toBe(false);
  });

  it('a raw read of an extension is caught', () => {
    const read = indexedBy(['x-mock-only']);
    expect(read.test("endpoint.document['x-mock-only']")).toBe(true);
    expect(read.test("tokens: ['x-mock-only']")).toBe(false);
  });

  it('a layer that breaks a rule is caught: the check sees through re-exports and chains', () => {
    // The mock's server reaches the engine (it runs it) through mock/state.ts: the walk that clears the world sees it.
    expect(crossings('mock', ['mock/engine'])).toContain('mock/state.ts -> mock/engine/engine.ts');
  });
});
