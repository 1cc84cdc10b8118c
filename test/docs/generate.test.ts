/**
 * The docs site as files: every method of every document has its section and permalink, every link between pages
 * lands on a file and an id that exist, output is deterministic and valid HTML, examples are shown exactly, and
 * hostile spec text stays text.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { HtmlValidate, type RuleConfig, StaticConfigLoader } from 'html-validate';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type BuiltSite,
  ROOT,
  SPECS,
  attributeValues,
  buildSite,
  codeBlocks,
  methodSection,
  renderDocs,
  textOf,
} from './site.ts';

const sites: Record<keyof typeof SPECS, BuiltSite> = {} as never;
const pagesOf = (site: BuiltSite) =>
  site.files.filter((f) => f.path.endsWith('.html')).map((f) => f.path.slice('docs/'.length));

beforeAll(async () => {
  for (const name of Object.keys(SPECS) as Array<keyof typeof SPECS>) sites[name] = await buildSite(SPECS[name]);
});

describe('docs site structure', () => {
  it('has a landing page, a types page and one page per endpoint, each with its published OpenRPC document', () => {
    const paths = sites.real.files.map((f) => f.path);
    for (const endpoint of sites.real.model.endpoints) {
      expect(paths).toContain(`docs/${endpoint.name}.html`);
      expect(paths).toContain(`docs/openrpc/${endpoint.name}.json`);
    }
    expect(paths).toEqual(
      expect.arrayContaining([
        'docs/index.html',
        'docs/types.html',
        'docs/assets/site.css',
        'docs/assets/site.js',
        'docs/assets/favicon.svg',
      ]),
    );
  });

  it.each(['real', 'demo', 'hostile'] as const)(
    'gives every method of the %s spec a section, a permalink and an entry in the navigation',
    (name) => {
      const site = sites[name];
      const index = site.page('index.html');
      for (const endpoint of site.model.endpoints) {
        const page = site.page(`${endpoint.name}.html`);
        for (const method of endpoint.methods) {
          expect(attributeValues(page, 'id')).toContain(method.name);
          expect(attributeValues(page, 'href')).toContain(`#${method.name}`);
          expect(attributeValues(index, 'href')).toContain(`${endpoint.name}.html#${method.name}`);
          expect(textOf(methodSection(page, method.name))).toContain(method.summary);
        }
      }
    },
  );

  it.each(['real', 'demo', 'hostile'] as const)(
    'lists every endpoint and every method of the %s spec on the landing page',
    (name) => {
      const { model } = sites[name];
      const index = sites[name].page('index.html');
      expect(attributeValues(index, 'data-endpoint')).toEqual(model.endpoints.map((endpoint) => endpoint.name));
      expect(new Set(attributeValues(index, 'data-method'))).toEqual(
        new Set(model.endpoints.flatMap((endpoint) => endpoint.methods.map((method) => method.name))),
      );
    },
  );

  it.each(['real', 'demo', 'hostile'] as const)(
    'resolves every link of the %s site to an existing file and id',
    (name) => {
      const site = sites[name];
      const idsByPage = new Map<string, Set<string>>();
      const idsOf = (file: string) => {
        if (!idsByPage.has(file)) idsByPage.set(file, new Set(attributeValues(readFileSync(file, 'utf8'), 'id')));
        return idsByPage.get(file)!;
      };
      const broken: string[] = [];
      for (const page of pagesOf(site)) {
        const pageFile = join(site.dir, page);
        const html = site.page(page);
        for (const link of [...attributeValues(html, 'href'), ...attributeValues(html, 'src')]) {
          if (/^[a-z]+:/i.test(link)) {
            broken.push(`${page}: ${link} leaves the site`);
            continue;
          }
          const [path, fragment] = link.split('#');
          // The C-Chain's site is a sibling in the project's output (generated/c-chain/docs), not in this build.
          if (name === 'real' && path?.startsWith('../c-chain/docs/')) {
            if (!existsSync(resolve(ROOT, 'generated/docs', path))) broken.push(`${page}: ${link} (no sibling file)`);
            continue;
          }
          const target = path ? resolve(dirname(pageFile), path) : pageFile;
          if (!target.startsWith(site.dir) || !existsSync(target)) broken.push(`${page}: ${link} (no file)`);
          else if (fragment !== undefined && !idsOf(target).has(decodeURIComponent(fragment)))
            broken.push(`${page}: ${link} (no id)`);
        }
      }
      expect(broken).toEqual([]);
    },
  );
});

describe('docs output', () => {
  it('is deterministic: the same model gives byte-identical files', async () => {
    const again = await renderDocs(sites.real.model);
    expect(again).toEqual(sites.real.files);
  });

  it('starts every page with one line naming its source documents, uses LF and ends with one newline', () => {
    for (const file of sites.real.files.filter((f) => !f.path.endsWith('.json'))) {
      expect(file.contents).not.toContain('\r');
      expect(file.contents.endsWith('\n') && !file.contents.endsWith('\n\n')).toBe(true);
      expect(file.contents).toMatch(/^(<!DOCTYPE html>\n<!-- |<!-- |\/\* |\/\/ )Generated (from|by) /);
    }
    expect(sites.real.page('p-chain.html')).toContain(
      '<!-- Generated by avalanche-openrpc from openrpc/p-chain.json. Do not edit: change the spec, then run npm ' +
        'run generate. -->',
    );
  });

  it('passes html-validate on every page of every site', async () => {
    // Ids are the wire method names (`platform.getHeight`): valid HTML, so only HTML's own id rules apply. Page
    // titles are the spec's endpoint titles; their length is the spec author's call, not a validity question.
    const rules: RuleConfig = { 'valid-id': ['error', { relaxed: true }], 'long-title': 'off' };
    const validator = new HtmlValidate(new StaticConfigLoader({ extends: ['html-validate:recommended'], rules }));
    const problems: string[] = [];
    for (const site of Object.values(sites)) {
      for (const page of pagesOf(site)) {
        const report = await validator.validateString(site.page(page), page);
        for (const result of report.results)
          for (const m of result.messages) problems.push(`${page}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('loads nothing from outside the site: no external scripts, styles, fonts or images', () => {
    for (const page of pagesOf(sites.real)) {
      const html = sites.real.page(page);
      expect(attributeValues(html, 'src').every((src) => !/^[a-z]+:|^\/\//i.test(src))).toBe(true);
      expect(html).not.toMatch(/<link[^>]+href="(https?:)?\/\//);
    }
    expect(sites.real.page('assets/site.css')).not.toMatch(/url\(|@import/);
  });
});

describe('examples', () => {
  it('shows each example as the exact JSON-RPC request and response, a curl command and a client call', () => {
    for (const endpoint of sites.real.model.endpoints) {
      const page = sites.real.page(`${endpoint.name}.html`);
      for (const method of endpoint.methods) {
        const section = methodSection(page, method.name);
        const requests = codeBlocks(section, 'Request');
        const responses = codeBlocks(section, 'Response');
        const expected = method.examples.map((example) => ({
          jsonrpc: '2.0',
          id: 1,
          method: method.name,
          params: example.params,
        }));
        expect(requests).toEqual(expected.map((request) => JSON.stringify(request, null, 2)));
        expect(responses.map((text) => JSON.parse(text))).toEqual(
          method.examples.map((example) => ({ jsonrpc: '2.0', id: 1, result: example.result })),
        );
        for (const curl of codeBlocks(section, 'curl')) {
          expect(curl).toMatch(/^curl -X POST --data '/);
          expect(curl).toContain(`-H 'content-type:application/json;'`);
          expect(curl.trimEnd().endsWith(`${endpoint.defaultBaseUrl}${endpoint.defaultPath}`)).toBe(true);
        }
        for (const snippet of codeBlocks(section, 'TypeScript')) {
          expect(snippet).toContain(`import { ${endpoint.typeName}Client } from '@avalanche-openrpc/client';`);
          expect(snippet).toContain(`await client.${method.shortName}(${method.params.length === 0 ? ')' : ''}`);
        }
      }
    }
  });

  it('writes the P-Chain height example the way the brief shows it', () => {
    const section = methodSection(sites.real.page('p-chain.html'), 'platform.getHeight');
    expect(codeBlocks(section, 'TypeScript')[0]).toBe(
      "import { PChainClient } from '@avalanche-openrpc/client';\n\nconst client = new PChainClient();\nconst " +
        'result = await client.getHeight();',
    );
    expect(codeBlocks(section, 'curl')[0]).toContain('http://127.0.0.1:9650/ext/bc/P');
    const xChain = methodSection(sites.real.page('x-chain.html'), 'avm.getHeight');
    expect(codeBlocks(xChain, 'TypeScript')[0]).toContain("new XChainClient({ blockchainID: 'X' })");
  });
});
