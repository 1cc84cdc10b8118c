/**
 * A spec is untrusted input: generating from a document whose every string is an attack (hostile-spec.ts) gives
 * packages that run nothing of it when imported, pages and READMEs that show it as text, and code in which it is only
 * ever data, while the text itself arrives intact where it belongs (the served document, the wire, the result).
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
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generators/pipeline.ts';
import { attributeValues, textOf } from '../docs/site.ts';
import { PROTOTYPE_NAMES, hostileDocument } from './hostile-spec.ts';
import { listen } from '../support/rpc.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const temp = mkdtempSync(join(tmpdir(), 'hostile-'));
const out = join(temp, 'out');
const markFile = join(temp, 'ran');
const { document, fields } = hostileDocument(markFile);
const input = JSON.parse(JSON.stringify(document));
const ran = () => (globalThis as { hostileRan?: number[] }).hostileRan?.map((n) => fields[n]);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

beforeAll(async () => {
  mkdirSync(join(temp, 'spec'));
  writeFileSync(join(temp, 'spec/hostile.json'), JSON.stringify(document, null, 2));
  await generate({ spec: join(temp, 'spec'), out });
  // As `npm install` would leave the server package: its dependency beside it.
  mkdirSync(join(out, 'node_modules/@noble'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules/@noble/hashes'), join(out, 'node_modules/@noble/hashes'));
}, 120_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('a spec whose every string is an attack', () => {
  it('writes code in which no attack is code: no file has the attack as an identifier', () => {
    const code = filesUnder(out).filter((file) => /\.[jt]s$/.test(file) && !file.includes('node_modules'));
    expect(code.length).toBeGreaterThan(10);
    for (const file of code) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const found: string[] = [];
      const visit = (node: ts.Node) => {
        if (ts.isIdentifier(node) && node.text === 'hostileRan') found.push(node.getText());
        ts.forEachChild(node, visit);
      };
      visit(source);
      expect({
        file: relative(out, file),
        parseErrors: (source as { parseDiagnostics?: unknown[] }).parseDiagnostics?.length ?? 0,
        found,
      }).toEqual({ file: relative(out, file), parseErrors: 0, found: [] });
    }
  });

  it('runs nothing of it when the server and client packages are imported, compiled or as TypeScript', async () => {
    const modules = [
      join(out, 'server/dist/index.js'),
      join(out, 'client/dist/index.js'),
      join(out, 'server/src/index.ts'),
      join(out, 'client/src/index.ts'),
    ];
    for (const module of modules) await import(module);
    expect(ran()).toBeUndefined();
    expect(existsSync(markFile)).toBe(false);
  });

  it('serves the document, routes the wire name and answers the example with every string intact', async () => {
    const server = await import(join(out, 'server/dist/index.js'));
    const client = await import(join(out, 'client/dist/index.js'));
    const served = JSON.parse(JSON.stringify(server.hostileDocument));
    expect(served.info).toEqual(input.info);
    expect(served.servers).toEqual(input.servers);
    expect(served.methods[0].name).toBe(input.methods[0].name);
    expect(served.methods[0].params).toEqual(input.methods[0].params);
    expect(served.methods[0].examples).toEqual(input.methods[0].examples);

    const endpoint = server.createHostileEndpoint(
      server.exampleHandlers(server.hostileDocument, server.hostileMethods),
    );
    const { port, close } = await listen(server.createRouter({ '/ext/X': endpoint }).node);
    try {
      const api = new client.HostileClient({ baseUrl: `http://127.0.0.1:${port}`, chain: 'X' });
      const method = Object.keys(api.wireNames)[0] as string;
      expect(api.wireNames[method]).toBe(input.methods[0].name);
      const example = input.methods[0].examples[0];
      const params = Object.fromEntries(
        example.params.map(({ name, value }: { name: string; value: string }) => [name, value]),
      );
      const result = await api[method](params);
      expect(result).toEqual(example.result.value);
      expect(Object.keys(result).sort()).toEqual(Object.keys(example.result.value).sort());
      for (const name of PROTOTYPE_NAMES) expect(Object.hasOwn(result, name), name).toBe(true);
    } finally {
      await close();
    }
  });

  it('shows it as text on every page of the docs', () => {
    const pages = filesUnder(join(out, 'docs')).filter((file) => file.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      const tags = [...html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)];
      expect(
        tags.filter(([, tag]) => tag === 'script').map(([whole]) => whole),
        page,
      ).toEqual(['<script src="assets/site.js" defer>']);
      expect(
        tags.filter(([, tag]) => tag === 'img'),
        page,
      ).toEqual([]);
      expect(
        tags.filter(([, , attributes]) => /\son\w+\s*=/i.test(attributes!)),
        page,
      ).toEqual([]);
      expect(
        attributeValues(html, 'href').filter((href) => /^\s*javascript:/i.test(href)),
        page,
      ).toEqual([]);
    }
    const text = textOf(readFileSync(join(out, 'docs/hostile.html'), 'utf8'));
    for (const field of ['method summary', 'param name', 'error message'])
      expect(text, field).toContain(`F${fields.indexOf(field)} */ (globalThis.hostileRan??=[]).push(`);
  });

  it('shows it as text in the READMEs', () => {
    for (const readme of ['client/README.md', 'server/README.md']) {
      const markdown = readFileSync(join(out, readme), 'utf8');
      // Outside code, no tag, link or comment end: every such character is escaped.
      const prose = outsideCode(markdown.replace(/^<!--.*-->\n/, ''));
      expect(prose, readme).not.toMatch(/(?<!\\)(<|\]\(|`)/);
      // Unescaped, the title reads as the spec wrote it (on one line).
      const title = input.info.title.replace(/\s+/g, ' ').trim();
      expect(prose.replace(/\\([!-/:-@[-`{-~])/g, '$1'), readme).toContain(title);
    }
  });
});

/** Markdown without its fenced blocks and code spans (a span closes at the next run of as many backticks). */
function outsideCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/(?<![\\`])(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
}
