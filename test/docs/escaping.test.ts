/**
 * Spec text is data, never markup: the hostile fixture's `<script>`, `"><img onerror=...>`, `{{...}}` and
 * `javascript:` links come out as text on every page, and pasted snippets cannot run anything but the call.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellQuote } from '../../generators/docs/example-view.ts';
import { renderMarkdown } from '../../generators/docs/markdown.ts';
import { jsLiteral } from '../../generators/emit/literal.ts';
import { type BuiltSite, ROOT, SPECS, attributeValues, buildSite, codeBlocks, methodSection, textOf } from './site.ts';

let site: BuiltSite;
const pages = () => site.files.filter((f) => f.path.endsWith('.html'));

beforeAll(async () => {
  site = await buildSite(SPECS.hostile);
});

describe('the hostile fixture', () => {
  it('creates no element, attribute or link of its own on any page', () => {
    for (const { path, contents } of pages()) {
      const tags = [...contents.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)];
      expect(
        tags.filter(([, tag]) => tag === 'script').map(([whole]) => whole),
        path,
      ).toEqual(['<script src="assets/site.js" defer>']);
      expect(
        tags.filter(([, tag]) => tag === 'img'),
        path,
      ).toEqual([]);
      expect(
        tags.filter(([, , attributes]) => /\son\w+\s*=/i.test(attributes!)).map(([whole]) => whole),
        path,
      ).toEqual([]);
      expect(
        attributeValues(contents, 'href').filter((href) => /^\s*javascript:/i.test(href)),
        path,
      ).toEqual([]);
    }
  });

  it('shows every payload as text, Handlebars expressions included', () => {
    const text = textOf(site.page('hostile.html'));
    for (const payload of [
      "Hostile <script>window.__xss='title'</script> API",
      "Summary <script>window.__xss='summary'</script> \"><img src=x onerror=\"window.__xss='summary-img'\"> " +
        '{{summary}}',
      "{{constructor.constructor('window.__xss=2')()}}",
      '{{#each this}}{{/each}}',
      "</code></pre><script>window.__xss='fence'</script>",
      'q"><img src=x onerror="window.__xss=\'param-name\'">',
      "<script>window.__xss='error'</script> {{message}}",
      "The prose docs say <script>window.__xss='discrepancy'</script> and {{discrepancy}}; the wire says otherwise.",
      "a link (javascript:window.__xss='link')",
    ]) {
      expect(text).toContain(payload);
    }
    expect(textOf(site.page('types.html'))).toContain("A shared type: <script>window.__xss='schema'</script>");
  });

  it('shows a param default in its own column, as text', () => {
    const section = methodSection(site.page('hostile.html'), 'hostile.render');
    expect(section).toContain('<th scope="col">Default</th>');
    expect(textOf(section)).toContain(`"<script>window.__xss='default'</script>"`);
  });

  it('keeps the JSON examples exact and the snippets inert', () => {
    const section = methodSection(site.page('hostile.html'), 'hostile.render');
    const [request] = codeBlocks(section, 'Request');
    expect(JSON.parse(request!).params.mode).toBe('{{mode}}');
    const [curl] = codeBlocks(section, 'curl');
    // The server variable holds `$(touch /tmp/pwned)'"...`: quoted, the shell sees one word.
    expect(curl).toContain(
      `'http://127.0.0.1:9650/ext/bc/X$(touch /tmp/pwned)'\\''"><img src=x onerror=alert('\\''server'\\'')>'`,
    );
    const [typescript] = codeBlocks(section, 'TypeScript');
    expect(typescript).toContain(`'</script><script>window.__xss=\\'value\\'</script>\\'; alert(\\'ts\\'); \\''`);
  });
});

describe('snippet quoting', () => {
  it('quotes shell words only when needed, and so that the shell cannot end the quote', () => {
    expect(shellQuote('http://127.0.0.1:9650/ext/bc/P')).toBe('http://127.0.0.1:9650/ext/bc/P');
    expect(shellQuote(`it's $(x)`)).toBe(`'it'\\''s $(x)'`);
  });

  it('writes TypeScript literals that evaluate back to the JSON value', () => {
    const value = { plain: 'a', 'needs-quotes': "it's \\ \n \u2028", list: [1, null, true], nested: { deep: ['x'] } };
    const literal = jsLiteral(value, '');
    expect(literal).toContain('plain: ');
    expect(new Function(`return ${literal};`)()).toEqual(value);
  });
});

describe('markdown', () => {
  const md = (source: string) =>
    renderMarkdown(source, (name) =>
      name === 'platform.getUTXOs' ? 'p-chain.html#platform.getUTXOs' : undefined,
    ).toHTML();

  it('renders paragraphs, lists, fenced code, inline code, bold and emphasis', () => {
    expect(md('One\nline.\n\nTwo.')).toBe('<p>One line.</p>\n<p>Two.</p>');
    expect(md('- a `b`\n- **c** and *d*\n  continued')).toBe(
      '<ul><li>a <code>b</code></li><li><strong>c</strong> and <em>d</em> continued</li></ul>',
    );
    expect(md('1. x\n2. y')).toBe('<ol><li>x</li><li>y</li></ol>');
    expect(md('```\n<b>\n```')).toBe('<pre class="code"><code>&lt;b&gt;</code></pre>');
  });

  it('links method names of the spec, keeps safe links and turns others into text', () => {
    expect(md('Use `platform.getUTXOs` or platform.getUTXOs, not e.g. foo.bar.')).toBe(
      '<p>Use <a href="p-chain.html#platform.getUTXOs"><code>platform.getUTXOs</code></a> or <a ' +
        'href="p-chain.html#platform.getUTXOs">platform.getUTXOs</a>, not e.g. foo.bar.</p>',
    );
    expect(md('[docs](https://build.avax.network/docs)')).toBe(
      '<p><a href="https://build.avax.network/docs">docs</a></p>',
    );
    expect(md('[x](javascript:alert(1))')).not.toContain('href');
    expect(md('[x](data:text/html,hi)')).not.toContain('href');
    // A sibling site's page (the C-Chain's EVM API), relative and without a scheme.
    expect(md('[EVM](../c-chain/docs/index.html)')).toBe('<p><a href="../c-chain/docs/index.html">EVM</a></p>');
    expect(md('[x](../javascript:alert(1).html)')).not.toContain('href');
  });

  it('never lets raw HTML through', () => {
    expect(md('<img src=x onerror=alert(1)> & "q"')).toBe(
      '<p>&lt;img src&#61;x onerror&#61;alert(1)&gt; &amp; &quot;q&quot;</p>',
    );
  });
});

describe('templates', () => {
  it('never print unescaped values: no triple braces anywhere under templates/docs', () => {
    const names = readdirSync(`${ROOT}/templates/docs`).filter((name) => name.endsWith('.html.hbs'));
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      expect(readFileSync(`${ROOT}/templates/docs/${name}`, 'utf8'), name).not.toContain('{{{');
    }
  });
});
