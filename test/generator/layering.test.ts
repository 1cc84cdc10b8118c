/**
 * Artifacts do not import each other: what several of them need (the published document, comments, snippets) lives
 * in generators/shared/, so each artifact folder can change without reaching into another's.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const GENERATORS = resolve(import.meta.dirname, '../../generators');
const ARTIFACTS = ['client', 'docs', 'openrpc', 'server'];

function sourcesOf(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('generator layering', () => {
  it.each(ARTIFACTS)('%s imports no other artifact', (artifact) => {
    const crossings: string[] = [];
    for (const file of sourcesOf(join(GENERATORS, artifact))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'/g)) {
        const specifier = match[1] ?? match[2];
        if (!specifier?.startsWith('.')) continue;
        const target = relative(GENERATORS, resolve(join(file, '..'), specifier)).split('/')[0]!;
        if (ARTIFACTS.includes(target) && target !== artifact)
          crossings.push(`${relative(GENERATORS, file)} imports ${specifier}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
