/**
 * A server URL with variables (`http://{host}:{port}/rpc`): the docs show the URL the generated client sends to, every
 * variable at its default, and list the variables with their allowed values and descriptions. The OpenRPC project's
 * own simple-math example writes its variables `${name}`, which read as `{name}`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeOutput } from '../../generators/emit/output.ts';
import { clientClassName } from '../../generators/model/names.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';
import { ROOT, attributeValues, codeBlocks, textOf } from './site.ts';

const out = mkdtempSync(join(tmpdir(), 'server-url-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const HOSTED = {
  openrpc: '1.2.6',
  info: { title: 'Hosted', version: '1.0.0' },
  servers: [
    {
      url: 'http://{host}:{port}/rpc/{network}',
      variables: {
        network: { default: 'mainnet', enum: ['mainnet', 'testnet'], description: 'Which chain.' },
        port: { default: '8545' },
        host: { default: 'localhost', description: 'The node host.' },
      },
    },
  ],
  methods: [
    {
      name: 'ping',
      params: [],
      result: { name: 'pong', schema: { type: 'string' } },
      examples: [{ name: 'ping', params: [], result: { name: 'pong', value: 'pong' } }],
    },
  ],
};

/** The docs page of the spec's one endpoint and the `url` of its generated client constructed without options. */
async function generated(name: string, spec: string) {
  const model = loadModel(spec);
  const files = await renderArtifacts(model, { artifacts: ['client', 'docs'] });
  const dir = join(out, name);
  writeOutput(dir, files, name);
  const page = files.find((file) => /^docs\/(?!index|types)[^/]+\.html$/.test(file.path))!.contents;
  const client = await import(pathToFileURL(join(dir, 'client/dist/index.js')).href);
  const Client = client[clientClassName(model.endpoints[0]!.typeName)] as new () => { url: string };
  return { page, clientUrl: new Client().url };
}

/** The text of the `<dd>` after the `<dt>` reading `term`. */
const fact = (page: string, term: string) =>
  textOf(new RegExp(`<dt>${term}</dt>\\s*<dd>([\\s\\S]*?)</dd>`).exec(page)![1]!);

/** The variables the page lists, one text each. */
const variables = (page: string) =>
  [.../<ul class="variables">([\s\S]*?)<\/ul>/.exec(page)![1]!.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) =>
    textOf(m[1]!),
  );

describe('a server URL with variables in the docs', () => {
  it('shows the URL the client sends to and each variable, its default, allowed values and description', {
    timeout: 120_000,
  }, async () => {
    const spec = join(out, 'hosted.json');
    writeFileSync(spec, JSON.stringify(HOSTED));
    const { page, clientUrl } = await generated('hosted', spec);
    expect(clientUrl).toBe('http://localhost:8545/rpc/mainnet');
    expect(fact(page, 'URL')).toBe(clientUrl);
    expect(fact(page, 'URL template')).toMatch(/^http:\/\/\{host\}:\{port\}\/rpc\/\{network\}\s/);
    // In the order the URL names them.
    expect(variables(page)).toEqual([
      'host (default localhost): The node host.',
      'port (default 8545)',
      'network (default mainnet; one of mainnet, testnet): Which chain.',
    ]);
    expect(codeBlocks(page, 'curl').join('\n')).toContain(clientUrl);
    expect(attributeValues(page, 'value')).toContain('http://localhost:8545');
  });

  it("reads simple-math's dollar-braced variables as the client fills them", { timeout: 120_000 }, async () => {
    const { page, clientUrl } = await generated('simple-math', join(ROOT, 'test/fixtures/corpus/openrpc-simple-math'));
    expect(clientUrl).toBe('http://demo.simple-math.example.org:443/jsonrpc/');
    expect(fact(page, 'URL')).toContain(clientUrl);
    expect(variables(page)).toContain('port (default 443; one of 8545, 443)');
  });
});
