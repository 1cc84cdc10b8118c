/**
 * C0 and C1 control characters are valid in any JSON string of a spec, and harmful raw in a generated file: ESC starts
 * a terminal's control sequences when a README or a source is `cat`, NUL makes git and grep take a source for a binary
 * file, and an HTML parser reports them as errors. No generated file carries one raw: in a comment, a page or a README
 * it shows as its `\u` escape, which inside a string literal or JSON is the same character, so the wire and the
 * published document keep every string as the spec wrote it.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generators/pipeline.ts';
import { listen } from '../support/rpc.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const temp = mkdtempSync(join(tmpdir(), 'control-characters-'));
const out = join(temp, 'out');
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const CONTROLS = 'a\u0000b\u0007c\u001b[2Jd\u001b]52;c;ZWNobw==\u0007e\u007ff\u009b31mg';
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const document = {
  openrpc: '1.3.2',
  info: { title: `t${CONTROLS}`, version: '1.0.0', description: CONTROLS },
  methods: [
    {
      name: `get${CONTROLS}`,
      summary: CONTROLS,
      description: CONTROLS,
      params: [
        {
          name: `p${CONTROLS}`,
          description: CONTROLS,
          schema: {
            type: 'object',
            description: CONTROLS,
            properties: { [`k${CONTROLS}`]: { type: 'string', enum: [CONTROLS, 'x'], description: CONTROLS } },
          },
        },
      ],
      result: { name: 'r', description: CONTROLS, schema: { type: 'string', title: `R${CONTROLS}` } },
      errors: [{ code: 1, message: CONTROLS }],
      examples: [
        {
          name: CONTROLS,
          params: [{ name: `p${CONTROLS}`, value: { [`k${CONTROLS}`]: CONTROLS } }],
          result: { name: 'r', value: CONTROLS },
        },
      ],
    },
  ],
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'node_modules'
      ? []
      : entry.isDirectory()
        ? filesUnder(join(dir, entry.name))
        : [join(dir, entry.name)],
  );
}

beforeAll(async () => {
  mkdirSync(join(temp, 'spec'));
  writeFileSync(join(temp, 'spec/t.json'), JSON.stringify(document));
  await generate({ spec: join(temp, 'spec'), out });
  // As `npm install` would leave the server package: its dependency beside it.
  mkdirSync(join(out, 'node_modules/@noble'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules/@noble/hashes'), join(out, 'node_modules/@noble/hashes'));
}, 120_000);

describe('control characters in every string of a spec', () => {
  it('reach no generated file raw', () => {
    const files = filesUnder(out);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(RAW_CONTROL.exec(readFileSync(file, 'utf8'))?.index, file).toBeUndefined();
  });

  it('show as their escapes in the docs and the README', () => {
    const escaped = 'a\\u0000b\\u0007c\\u001b[2Jd';
    expect(readFileSync(join(out, 'client/README.md'), 'utf8')).toContain(escaped);
    const page = readdirSync(join(out, 'docs')).find((name) => name.endsWith('.html') && name !== 'index.html')!;
    expect(readFileSync(join(out, 'docs', page), 'utf8')).toContain(escaped);
  });

  it('stay as written in the published document', () => {
    const published = readdirSync(join(out, 'openrpc')).find((name) => name.endsWith('.json'))!;
    const bundled = JSON.parse(readFileSync(join(out, 'openrpc', published), 'utf8'));
    expect(bundled.methods[0].name).toBe(`get${CONTROLS}`);
    expect(bundled.methods[0].examples[0].result.value).toBe(CONTROLS);
    expect(bundled.info.description).toBe(CONTROLS);
  });

  it('go over the wire as written: the client calls the method by its name and gets the example back', async () => {
    const server = await import(pathToFileURL(join(out, 'server/dist/index.js')).href);
    const client = await import(pathToFileURL(join(out, 'client/dist/index.js')).href);
    const [endpoint] = Object.keys(server.ENDPOINTS) as string[];
    const create = Object.keys(server).find((name) => /^create\w+Endpoint$/.test(name))!;
    const documentName = Object.keys(server).find((name) => /Document$/.test(name))!;
    const methodsName = Object.keys(server).find((name) => /Methods$/.test(name) && name !== 'METHODS')!;
    const app = server[create](server.exampleHandlers(server[documentName], server[methodsName]));
    const http = await listen(server.createRouter({ [server.ENDPOINTS[endpoint!].path]: app }).node);
    try {
      const Client = Object.values(client).find(
        (value) => typeof value === 'function' && /Client$/.test(value.name) && value.name !== 'JsonRpcClient',
      ) as new (
        options: object,
      ) => Record<string, (params: object) => Promise<unknown>>;
      const sender = new Client({ baseUrl: http.url });
      const method = Object.getOwnPropertyNames(Object.getPrototypeOf(sender)).find((name) => name.startsWith('get'))!;
      expect(await sender[method]!({ [`p${CONTROLS}`]: { [`k${CONTROLS}`]: CONTROLS } })).toBe(CONTROLS);
    } finally {
      await http.close();
    }
  });
});
