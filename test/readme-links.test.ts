/**
 * Every relative link in every README (the project's and the generated packages') names a file of the repository,
 * relative to the README's own folder, and an `#anchor` names a heading of it as GitHub makes its ids. Two links of
 * generators/README.md were written from the root and led nowhere.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './support/cli.ts';

const SKIP = new Set(['node_modules', '.git', 'dist', 'test-artifacts', 'fixtures']);

function readmes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : readmes(join(dir, entry.name));
    return entry.name === 'README.md' ? [join(dir, entry.name)] : [];
  });
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces as hyphens. */
const anchorsOf = (markdown: string) =>
  new Set(
    [...markdown.matchAll(/^#{1,6} (.*)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, '')
        .replaceAll(' ', '-'),
    ),
  );

it('has no relative link in a README that leads nowhere', () => {
  const files = readmes(ROOT);
  expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', 'mock/README.md']));
  const broken: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(link!)) continue;
      const [path = '', anchor] = link!.split('#');
      const target = path ? join(dirname(file), path) : file;
      const where = `${relative(ROOT, file)}: ${link}`;
      if (!existsSync(target)) broken.push(`${where} (no such file)`);
      else if (anchor && statSync(target).isFile() && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${where} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});
