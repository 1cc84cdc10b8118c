/** The docs' front page speaks of the node only for documents of the avalanche profile: a foreign API is no node. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite, ROOT, SPECS } from './site.ts';

const lead = (html: string) => /<p class="lead">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';

describe('the docs front page', () => {
  it("describes the node's APIs for our own documents", async () => {
    const site = await buildSite(SPECS.real);
    expect(lead(site.page('index.html'))).toContain("the node's JSON-RPC APIs");
  });

  it('describes a foreign API without the node, its releases or its prose docs', async () => {
    const site = await buildSite(join(ROOT, 'test/fixtures/corpus/openrpc-petstore/petstore.json'));
    const text = lead(site.page('index.html'));
    expect(text).toContain('Every method of the API');
    expect(text).not.toMatch(/node|release/i);
  });
});
