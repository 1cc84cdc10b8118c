/**
 * Same input, same bytes: two runs agree, the order of keys in the input documents does not matter, and generation
 * leaves its input untouched.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GeneratedFile } from '../../generators/emit/files.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';

const SPEC = 'openrpc';
const temp = mkdtempSync(join(tmpdir(), 'determinism-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const client = async (spec: string) => renderArtifacts(loadModel(spec), { artifacts: ['client'] });
const asMap = (files: GeneratedFile[]) => Object.fromEntries(files.map((f) => [f.path, f.contents]));

/** A small deterministic random generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The same JSON with the keys of every object in a random order; arrays keep theirs (their order means something). */
function shuffleKeys(value: unknown, next: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, next));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, item]) => [key, shuffleKeys(item, next)] as const);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  return Object.fromEntries(entries);
}

function copyShuffled(from: string, to: string, seed: number): void {
  cpSync(from, to, { recursive: true });
  const next = random(seed);
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (name.endsWith('.json'))
        writeFileSync(path, JSON.stringify(shuffleKeys(JSON.parse(readFileSync(path, 'utf8')), next), null, 2));
    }
  };
  visit(to);
}

describe('deterministic output', () => {
  it('two runs give identical bytes', async () => {
    const first = await client(SPEC);
    const second = await client(SPEC);
    expect(second.map((f) => f.path)).toEqual(first.map((f) => f.path));
    expect(asMap(second)).toEqual(asMap(first));
  });

  it.each([1, 2])('shuffling the key order of every input file changes nothing (seed %i)', async (seed) => {
    const shuffled = join(temp, `spec-${seed}`);
    copyShuffled(SPEC, shuffled, seed);
    expect(readFileSync(join(shuffled, 'p-chain.json'), 'utf8')).not.toBe(
      JSON.stringify(JSON.parse(readFileSync(join(SPEC, 'p-chain.json'), 'utf8')), null, 2),
    );
    const original = asMap(await client(SPEC));
    // Headers name the documents where they were read from; that is the one thing allowed to differ.
    const moved = relative(process.cwd(), shuffled).split('\\').join('/');
    const fromShuffled = Object.fromEntries(
      Object.entries(asMap(await client(shuffled))).map(([path, contents]) => [
        path,
        contents.replaceAll(`${moved}/`, `${SPEC}/`),
      ]),
    );
    expect(fromShuffled).toEqual(original);
  });

  it('leaves the model it is given untouched', async () => {
    const model = loadModel(SPEC);
    const before = structuredClone(model);
    const freeze = (value: unknown): void => {
      if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const child of Object.values(value)) freeze(child);
      }
    };
    freeze(model);
    await renderArtifacts(model, { artifacts: ['client'] });
    expect(model).toEqual(before);
  });
});
