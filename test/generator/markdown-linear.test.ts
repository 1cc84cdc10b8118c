/**
 * A description is the spec author's Markdown, and the docs render every one: runs of what starts inline markup and
 * never closes (256 KiB of `[`, of `[a](`, of `*[`) render in time linear in their length, as text. Before, each
 * `[` scanned to the end of the text for its `]`, and 256 KiB of them took minutes.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../generators/docs/markdown.ts';

const SIZE = 1 << 18;

describe('Markdown of a hostile description', () => {
  it.each([
    ['[', '['],
    ['[a](', '[a]('],
    ['*[', '*['],
    ['[a](x', '[a](x'],
  ])('256 KiB of %s renders as text', (_, unit) => {
    const text = unit.repeat(SIZE / unit.length);
    const rendered = String(renderMarkdown(text));
    expect(rendered.length).toBeGreaterThanOrEqual(text.length);
    expect(rendered).not.toContain('<a ');
  });

  it('still renders links, emphasis and code', () => {
    expect(String(renderMarkdown('see [the spec](https://spec.open-rpc.org) and *this* and `code`'))).toBe(
      '<p>see <a href="https://spec.open-rpc.org">the spec</a> and <em>this</em> and <code>code</code></p>',
    );
  });
});
