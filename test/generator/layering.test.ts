/**
 * The project's import graph keeps its layers: every relative load of every source file (imports, re-exports,
 * `import()`, `import('...')` types, `require` and `createRequire(...)(...)`) is read from its syntax tree
 * (./source-facts.ts), and what each layer can reach, directly or through others, is checked.
 * - Artifacts (generators/client, docs, server) do not import each other: what several need lives in
 *   generators/shared/ (the openrpc artifact is generators/shared/published.ts).
 * - The model knows neither how a spec is loaded nor how files are emitted; the loader knows nothing of the model:
 *   what both need (JSON pointers, release numbers, the bundled document's shape) lives in generators/common/.
 * - The mock's world (its state) does not reach the engine that changes it, nor the generated packages: what the
 *   world and the engine both use (avalanchejs, the bytes encodings) lives in mock/shared/, and the replies it writes
 *   are the runtime's RawJson.
 * - The runtime is copied into every generated package: it reaches nothing outside itself.
 * - Past the model, the spec is read through the model: no layer reads a document's or a method's extension raw, and
 *   the one document the model hands on (`EndpointModel.published`) is read only to be published. A read is any
 *   member read the syntax tree shows: `a.b`, `a['b']`, `a[KEY]`, `{ b } = a`, `{ ['b']: c } = a`, `'b' in a`.
 * - The mock reads the documents the generated server packages embed only in mock/spec.ts, to make its model.
 * Each rule is shown to fail on a small source text that breaks it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SourceFacts, sourceFacts } from './source-facts.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCES = ['generators', 'runtime', 'mock', 'conform', 'diff'];

function sourcesOf(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

type Graph = Map<string, string[]>;

/** Each file's facts (./source-facts.ts), by path from the root. */
const factsOf = (texts: Map<string, string>): Map<string, SourceFacts> =>
  new Map([...texts].map(([file, text]) => [file, sourceFacts(text, file)]));

/** Each file's relative loads (static, dynamic, re-exports, types, `require`), as paths from the root. */
const graphOf = (facts: Map<string, SourceFacts>): Graph =>
  new Map(
    [...facts].map(([file, { specifiers }]) => [
      file,
      specifiers
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier))),
    ]),
  );

const project = factsOf(
  new Map(SOURCES.flatMap(sourcesOf).map((file) => [file, readFileSync(join(ROOT, file), 'utf8')])),
);
const graph = graphOf(project);

/** A small project of sources given as text, for showing that a rule fails on a violation. */
const sample = (files: Record<string, string>) => factsOf(new Map(Object.entries(files)));

/** Files past the model (outside generators/model and generators/load). */
const pastTheModel = (file: string) => !/^generators\/(model|load)\//.test(file);

/** Files of `facts` that pass `where` and read a member that `read` picks. */
const readers = (
  facts: Map<string, SourceFacts>,
  where: (file: string) => boolean,
  read: (member: string) => boolean,
) => [...facts].filter(([file, { members }]) => where(file) && [...members].some(read)).map(([file]) => file);

/** Every file `file` reaches through loads, with the chain that reaches it. */
function reach(within: Graph, file: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[file, [file]]]);
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const next of within.get(current) ?? []) {
      if (chains.has(next)) continue;
      chains.set(next, [...chains.get(current)!, next]);
      queue.push(next);
    }
  }
  chains.delete(file);
  return chains;
}

/**
 * Chains from files under `from` to files under any of `to` (not under `except`); with `direct`, single loads only.
 */
function crossings(within: Graph, from: string, to: string[], except: string[] = [], direct = false): string[] {
  const found: string[] = [];
  for (const file of within.keys()) {
    if (!file.startsWith(`${from}/`)) continue;
    const targets = direct
      ? new Map((within.get(file) ?? []).map((target) => [target, [file, target]]))
      : reach(within, file);
    for (const [target, chain] of targets) {
      if (to.some((layer) => target.startsWith(`${layer}/`)) && !except.some((e) => target.startsWith(`${e}/`)))
        found.push(chain.join(' -> '));
    }
  }
  return found;
}

const ARTIFACTS = ['client', 'docs', 'server'].map((name) => `generators/${name}`);

// Extensions of a document, a method, a param or an error (a schema's own, such as x-node-versions on a field, travel
// with the schema).
const EXTENSIONS = [
  'x-mock-only',
  'x-aliases',
  'x-changes',
  'x-docs-discrepancies',
  'x-error-name',
  'x-side-effects',
  'x-pagination',
  'x-result-history',
  'x-renamed-errors',
  'x-replacement',
  'x-sensitive',
  'x-zero-when-absent',
];

/** The generated server packages' exports of their embedded documents (`cAvaxDocument`). */
const EMBEDDED = new Set(
  ['generated/server/dist/index.js', 'generated/c-chain/server/dist/index.js'].flatMap((file) =>
    [...sourceFacts(readFileSync(join(ROOT, file), 'utf8')).exported].filter((name) => name.endsWith('Document')),
  ),
);

/** Each rule, on a graph or on the files' facts: what breaks it (empty when kept). */
const rules = {
  // Directly: each artifact reaches the others through the artifact table's types (generators/artifacts.ts).
  artifacts: (g: Graph) => ARTIFACTS.flatMap((artifact) => crossings(g, artifact, ARTIFACTS, [artifact], true)),
  model: (g: Graph) => crossings(g, 'generators/model', ['generators/load', 'generators/emit']),
  loader: (g: Graph) => crossings(g, 'generators/load', ['generators/model']),
  common: (g: Graph) =>
    crossings(g, 'generators/common', ['generators', 'mock', 'conform', 'diff'], ['generators/common']),
  worldEngine: (g: Graph) => crossings(g, 'mock/world', ['mock/engine']),
  worldGenerated: (g: Graph) => crossings(g, 'mock/world', ['generated']),
  runtime: (g: Graph) =>
    ['runtime/server', 'runtime/client'].flatMap((part) =>
      crossings(g, part, ['generators', 'mock', 'conform', 'diff', 'generated', 'runtime'], [part]),
    ),
  unresolved: (facts: Map<string, SourceFacts>) =>
    [...facts].flatMap(([file, { unresolved }]) => unresolved.map((load) => `${file}: ${load}`)),
  extensions: (facts: Map<string, SourceFacts>) => readers(facts, pastTheModel, (m) => EXTENSIONS.includes(m)),
  published: (facts: Map<string, SourceFacts>) => readers(facts, pastTheModel, (m) => m === 'published'),
  // The generated server packages export each endpoint's embedded document (`ENDPOINTS[name].document`,
  // `cAvaxDocument`): the mock turns them into its model in mock/spec.ts, and reads the model everywhere else.
  embedded: (facts: Map<string, SourceFacts>, documents = EMBEDDED) =>
    readers(
      facts,
      (file) => /^(mock|conform|diff)\//.test(file),
      (m) => m === 'document' || documents.has(m),
    ),
};

describe('import layers', () => {
  it('reads every source file and resolves its loads', () => {
    expect(graph.size).toBeGreaterThan(100);
    const missing = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => !target.startsWith('generated/') && !graph.has(target)).map((t) => `${file}: ${t}`),
    );
    // The packaged mock's bundle, built from core.ts, which load.ts imports too (for its type).
    expect(missing).toEqual(['mock/package/load.ts: mock/package/core.cjs']);
    expect(graph.get('mock/package/load.ts')).toContain('mock/package/core.ts');
  });

  it('every load names its module as a literal, which the graph follows', () => {
    // conform/generated.ts loads a server package it has just generated into a temporary folder; mock/when-idle.ts
    // imports, one a step, the modules of graphs whose entries the mock names literally (moduleSlices' callers).
    expect(rules.unresolved(project)).toEqual([
      'mock/when-idle.ts: import(frame.url)',
      'conform/generated.ts: import(entry)',
    ]);
  });

  it('the artifacts import no other artifact', () => {
    expect(rules.artifacts(graph)).toEqual([]);
  });

  it('the model reaches neither the loader nor emit', () => {
    expect(rules.model(graph)).toEqual([]);
  });

  it('the loader does not reach the model', () => {
    expect(rules.loader(graph)).toEqual([]);
  });

  it('generators/common reaches only itself: it is what the loader and the model share', () => {
    expect(rules.common(graph)).toEqual([]);
  });

  it("the mock's world does not reach its engine", () => {
    expect(rules.worldEngine(graph)).toEqual([]);
  });

  it("the mock's world does not reach the generated packages", () => {
    expect(rules.worldGenerated(graph)).toEqual([]);
  });

  it('the runtime reaches nothing outside itself', () => {
    expect(rules.runtime(graph)).toEqual([]);
  });

  it("the spec's extensions are read in the model only: later layers read the model, not the raw document", () => {
    expect(rules.extensions(project)).toEqual([]);
  });

  it('past the model, the document it hands on is read only to be published', () => {
    // Every fact of the spec is a field of the model; the document itself is written out as it is, never searched.
    expect(rules.published(project)).toEqual(['generators/shared/published.ts']);
  });

  it("the mock reads the generated server's embedded documents only to build its model", () => {
    expect(rules.embedded(project)).toEqual(['mock/spec.ts']);
  });

  it('the mock builds its model with the model layer, which the graph sees through createRequire', () => {
    // mock/spec.ts loads the builder on demand (a cold start without a stored model); the mock reading the spec
    // through generators/model is the layering, not a breach of it.
    expect(graph.get('mock/spec.ts')).toContain('generators/model/build.ts');
  });
});

describe('each rule fails on a violation', () => {
  const graphOfSample = (files: Record<string, string>) => graphOf(sample(files));

  it.each([
    ['static', "import { x } from '../docs/page.ts';"],
    ['re-export', "export * from '../docs/page.ts';"],
    ['dynamic', "const page = await import('../docs/page.ts');"],
    ['type', "type Page = typeof import('../docs/page.ts');"],
    ['require', "const page = require('../docs/page.ts');"],
    ['createRequire, called at once', "const p = createRequire(import.meta.url)('../docs/page.ts');"],
    ['createRequire, named', "const load = module.createRequire(import.meta.url);\nconst p = load('../docs/page.ts');"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    ['after a template literal', "const s = `a${b}c`;\nconst p = await import('../docs/page.ts');"],
  ])('an artifact importing another (%s)', (_, text) => {
    expect(rules.artifacts(graphOfSample({ 'generators/client/a.ts': text, 'generators/docs/page.ts': '' }))).toEqual([
      'generators/client/a.ts -> generators/docs/page.ts',
    ]);
  });

  it('the other graph rules, through chains', () => {
    const specifier = (from: string, to: string) => {
      const path = relative(dirname(from), to);
      return path.startsWith('.') ? path : `./${path}`;
    };
    const chained = (from: string, via: string, to: string) =>
      graphOfSample({
        [from]: `export { a } from '${specifier(from, via)}';`,
        [via]: `const m = createRequire(import.meta.url)('${specifier(via, to)}');`,
        [to]: '',
      });
    const cases: Array<[keyof typeof rules, string, string, string]> = [
      ['model', 'generators/model/a.ts', 'generators/model/b.ts', 'generators/load/c.ts'],
      ['model', 'generators/model/a.ts', 'generators/model/b.ts', 'generators/emit/c.ts'],
      ['loader', 'generators/load/a.ts', 'generators/load/b.ts', 'generators/model/c.ts'],
      ['common', 'generators/common/a.ts', 'generators/common/b.ts', 'mock/c.ts'],
      ['worldEngine', 'mock/world/a.ts', 'mock/shared/b.ts', 'mock/engine/c.ts'],
      ['worldGenerated', 'mock/world/a.ts', 'mock/shared/b.ts', 'generated/server/c.js'],
      ['runtime', 'runtime/server/a.ts', 'runtime/server/b.ts', 'runtime/client/c.ts'],
    ];
    for (const [rule, from, via, to] of cases)
      expect((rules[rule] as (g: Graph) => string[])(chained(from, via, to)), rule).toContain(
        `${from} -> ${via} -> ${to}`,
      );
  });

  it('a load the graph cannot follow', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    const facts = sample({ 'mock/a.ts': 'const m = await import(`./${name}.ts`);\nconst n = require(name);' });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    expect(rules.unresolved(facts)).toEqual(['mock/a.ts: import(`./${name}.ts`)', 'mock/a.ts: require(name)']);
  });

  it.each([
    ['indexed', "const only = doc['x-mock-only'];"],
    ['indexed by a constant', "const KEY = 'x-mock-only';\nconst only = doc[KEY];"],
    ['destructured', "const { 'x-mock-only': only } = doc;"],
    ['destructured, computed', "const { ['x-mock-only']: only } = doc;"],
    ['tested', "if ('x-mock-only' in doc) run();"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    ['after a template literal', "log(`${a}`);\nconst only = doc['x-mock-only'];"],
  ])('a raw read of an extension past the model (%s)', (_, text) => {
    expect(rules.extensions(sample({ 'mock/a.ts': text, 'generators/model/b.ts': text }))).toEqual(['mock/a.ts']);
  });

  it('a key listed, or named in a string or a comment, is no read', () => {
    const text = "// doc['x-mock-only']\nconst tokens = ['x-mock-only', `x-changes`];\nlog(`doc['x-mock-only']`);";
    expect(rules.extensions(sample({ 'mock/a.ts': text }))).toEqual([]);
  });

  it.each([
    ['a member', 'walk(endpoint.published);'],
    ['destructured', 'const { published } = endpoint;'],
    ['indexed', "const doc = endpoint['published'];"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
    ['after a template literal', 'const s = `${x}`;\nconst f = (e: { published: object }) => e.published;'],
  ])('a consumer past the model that reads the published document (%s)', (_, text) => {
    expect(rules.published(sample({ 'conform/a.ts': text, 'generators/model/b.ts': text }))).toEqual(['conform/a.ts']);
  });

  it('naming the published document is no read of it', () => {
    expect(rules.published(sample({ 'conform/a.ts': "publishedPath(endpoint); log('published');" }))).toEqual([]);
  });

  it.each([
    ['from the endpoint table', 'compileSteps(ENDPOINTS[name].document);'],
    ['destructured', 'for (const { document } of Object.values(ENDPOINTS)) walk(document);'],
    ['imported', "import { cAvaxDocument } from '../generated/server/dist/index.js';"],
    ['from the package', 'walk(server.cAvaxDocument);'],
  ])('the mock reading an embedded document (%s)', (_, text) => {
    const documents = new Set(['cAvaxDocument']);
    expect(rules.embedded(sample({ 'mock/a.ts': text, 'generators/server/b.ts': text }), documents)).toEqual([
      'mock/a.ts',
    ]);
  });
});
