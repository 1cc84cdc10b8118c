// Pages written piece by piece (emit/files.ts StreamedFile): the pieces add up to what the page would be as one
// string, wherever they break, and the output compares and stages them as it does whole files.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STAGING_DIR, textFile, textPieces, wholeFile } from '../../generators/emit/files.ts';
import { openOutput } from '../../generators/emit/output.ts';
import { loadTemplates } from '../../generators/emit/templates.ts';
import { tidy, tidyPieces } from '../../generators/docs/tidy.ts';

/** What the docs did to a page before it came in pieces: the reference the streamed rules must match. */
const wholeTidy = (text: string) => text.replace(/(?<![ \t])[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n');

/** `text` cut at the given offsets. */
const cut = (text: string, offsets: number[]) => {
  const at = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((start, i) => text.slice(start, at[i] ?? text.length));
};

// Text made of what the rules look at: blanks, every kind of line break, other whitespace and plain characters.
const tricky = fc
  .array(fc.constantFrom(' ', '\t', '\n', '\r', '\r\n', '\u2028', '\u00a0', 'a', '<p>', '\n\n\n'), { maxLength: 60 })
  .map((parts) => parts.join(''));
const offsets = fc.array(fc.nat({ max: 200 }), { maxLength: 12 });

describe('text in pieces', () => {
  it('tidies to what the whole page tidies to, wherever the pieces break', () => {
    fc.assert(
      fc.property(tricky, offsets, (text, at) => {
        expect([...tidyPieces(cut(text, at))].join('')).toBe(wholeTidy(text));
        expect(tidy(text)).toBe(wholeTidy(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('ends as textFile ends a file (CRLF to LF, no trailing whitespace, one newline)', () => {
    fc.assert(
      fc.property(tricky, offsets, (text, at) => {
        expect([...textPieces(cut(text, at))].join('')).toBe(textFile('x', text).contents);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes runs of blanks that span many pieces', () => {
    const text = `${' '.repeat(200_000)}x\n`.repeat(5);
    const pieces = text.match(/[\s\S]{1,1000}/g)!;
    expect([...tidyPieces(pieces)].join('')).toBe(wholeTidy(text));
  });
});

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'streamed-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('templates.pieces', () => {
  it('renders a page as the template does, one piece per call of the partial', () => {
    const dir = join(root, 'templates');
    mkdirSync(join(dir, 'site'), { recursive: true });
    writeFileSync(
      join(dir, 'site/page.html.hbs'),
      '<h1>{{title}}</h1>\n{{#each items}}\n{{> item.html}}\n{{/each}}\n<ul>\n  {{#each items}}\n  {{> item.html}}\n' +
        '  {{/each}}\n</ul>\n{{> item.html items.[0]}}\n',
    );
    writeFileSync(
      join(dir, 'site/_item.html.hbs'),
      '<li>{{name}} of {{@root.title}}{{#each tags}}{{#if @first}}:{{/if}} {{this}}{{/each}}</li>\n<p>{{note}}</p>\n',
    );
    const templates = loadTemplates(dir, 'site');
    const view = {
      title: 'A & B',
      items: [
        { name: 'one', tags: ['x', 'y'], note: '<b>' },
        { name: 'two', tags: [], note: '' },
      ],
    };
    const pieces = [...templates.pieces('page.html', 'item.html')(view)];
    expect(pieces.join('')).toBe(templates('page.html')(view));
    // The frame's four parts and the five calls' output.
    expect(pieces.length).toBe(11);
    expect(pieces[1]).toBe('<li>one of A &amp; B: x y</li>\n<p>&lt;b&gt;</p>\n');
  });
});

describe('a streamed file in the output', () => {
  const page = (text: string) => ({ path: 'docs/page.html', pieces: () => text.match(/[\s\S]{1,7}/g) ?? [] });

  it('is written whole, and found unchanged, stale or missing as a whole file would be', () => {
    const out = join(root, 'out');
    const text = `<p>${'long line '.repeat(20_000)}</p>\n`;
    expect(wholeFile(page(text))).toEqual({ path: 'docs/page.html', contents: text });

    const first = openOutput(out, 'write');
    first.add([page(text)]);
    expect(first.finish('header', {}).report).toMatchObject({ written: ['.generated-files', 'docs/page.html'] });
    expect(readFileSync(join(out, 'docs/page.html'), 'utf8')).toBe(text);

    const again = openOutput(out, 'write');
    again.add([page(text)]);
    expect(again.finish('header', {}).report).toMatchObject({ written: [], unchanged: 2 });
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);

    for (const other of [`${text}x`, text.slice(0, -2), text.replace('line', 'lime')]) {
      const check = openOutput(out, 'check');
      check.add([page(other)]);
      expect(check.finish('header', {}).report).toMatchObject({ stale: ['docs/page.html'], missing: [] });
    }
    const elsewhere = openOutput(join(root, 'empty'), 'check');
    elsewhere.add([page(text)]);
    expect(elsewhere.finish('header', {}).report).toMatchObject({ missing: ['.generated-files', 'docs/page.html'] });
  });
});
