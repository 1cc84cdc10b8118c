/**
 * `npm run docs` as a reader meets it, over the committed generated/ folder: `/` leads to the site, and a crawl of
 * every page reachable from there finds each link, stylesheet, script and image on the server and each `#anchor`
 * on its page (both sites, the main one and the C-Chain's, which link to each other).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningCli, startCli } from '../support/cli.ts';

let cli: RunningCli;
let origin: string;
beforeAll(async () => {
  cli = startCli('generators/docs/serve.ts', ['--port', '0']);
  origin = new URL((await cli.stdout.until(/Docs at (http:\/\/127\.0\.0\.1:\d+\/\S*)/))[1]!).origin;
});
afterAll(() => cli.stop());

it('sends / to the site', async () => {
  const response = await fetch(`${origin}/`, { redirect: 'manual' });
  expect([response.status, response.headers.get('location')]).toEqual([302, '/docs/']);
});

it('has no broken link or anchor on any page reachable from /', async () => {
  const pages = new Map<string, string>();
  const broken: string[] = [];
  const anchors: Array<{ from: string; to: URL }> = [];
  const queue = [`${origin}/`];
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (pages.has(url)) continue;
    const response = await fetch(url);
    pages.set(url, '');
    if (response.status !== 200) {
      broken.push(`${url}: HTTP ${response.status}`);
      continue;
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/html') && !type.startsWith('text/css')) continue;
    const text = await response.text();
    pages.set(new URL(response.url).href, text);
    const refs = [
      ...[...text.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&')),
      ...[...text.matchAll(/url\(["']?([^"')]+)["']?\)/g)].map((m) => m[1]!),
    ];
    for (const ref of refs) {
      if (/^(?:data|mailto|javascript):/.test(ref)) continue;
      const to = new URL(ref, response.url);
      if (to.origin !== origin) continue;
      if (to.hash) anchors.push({ from: response.url, to: new URL(to) });
      to.hash = '';
      queue.push(to.href);
    }
  }
  for (const { from, to } of anchors) {
    const page = pages.get(new URL(to.pathname, origin).href);
    const id = decodeURIComponent(to.hash.slice(1));
    if (page && !page.includes(`id="${id}"`) && !page.includes(`name="${id}"`))
      broken.push(`${from} -> ${to.pathname}${to.hash}: no such anchor`);
  }
  expect([...pages.keys()].filter((url) => url.endsWith('.html')).length).toBeGreaterThan(15);
  expect([...pages.keys()]).toContain(`${origin}/c-chain/docs/index.html`);
  expect(anchors.length).toBeGreaterThan(100);
  expect(broken).toEqual([]);
});
