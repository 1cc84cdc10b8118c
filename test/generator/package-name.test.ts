/**
 * The generated packages are named for the spec they come from: `--package-name` (GenerateOptions.packageName), else
 * the first document's title, and the Avalanche spec keeps `@avalanche-openrpc/*`. Nothing generated from another
 * spec names Avalanche's packages or endpoints.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';

const PETSTORE = join(import.meta.dirname, '../fixtures/corpus/openrpc-petstore');

const render = async (packageName?: string) =>
  new Map((await renderArtifacts(loadModel(PETSTORE, packageName))).map((file) => [file.path, file.contents] as const));
const nameOf = (files: Map<string, string>, pkg: string) =>
  (JSON.parse(files.get(`${pkg}/package.json`)!) as { name: string }).name;

describe('package names', () => {
  it('come from the title of a spec that names none, and Avalanche is nowhere in what is generated', async () => {
    const files = await render();
    expect(nameOf(files, 'client')).toBe('petstore-client');
    expect(nameOf(files, 'server')).toBe('petstore-server');
    const server = files.get('server/README.md')!;
    expect(server).toContain("from 'petstore-server'");
    expect(server).toContain('createPetstoreEndpoint(handlers)');
    expect(server).toContain("`profile: 'jsonrpc2'` (the default for this spec)");
    for (const [path, text] of files) {
      expect(text, path).not.toContain('@avalanche-openrpc/');
      expect(text, path).not.toContain('createPChainEndpoint');
    }
  });

  it('are <name>-client and <name>-server with --package-name, in the READMEs and the docs snippets too', async () => {
    const files = await render('@acme/pets');
    expect(nameOf(files, 'client')).toBe('@acme/pets-client');
    expect(nameOf(files, 'server')).toBe('@acme/pets-server');
    expect(files.get('client/README.md')).toContain("from '@acme/pets-client'");
    expect(files.get('server/README.md')).toContain("from '@acme/pets-server'");
    expect(files.get('docs/petstore.html')).toContain('@acme/pets-client');
  });

  it('refuses a name npm would refuse, saying which', () => {
    expect(() => loadModel(PETSTORE, 'Bad Name')).toThrow(/package name "Bad Name"/);
  });

  it("keep the Avalanche spec's own names", () => {
    const model = loadModel(join(import.meta.dirname, '../../openrpc'));
    expect(model.packageNames).toEqual({ client: '@avalanche-openrpc/client', server: '@avalanche-openrpc/server' });
  });
});
