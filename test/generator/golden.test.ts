/**
 * Golden tests: each small fixture document (one feature each) through the client, server and docs generators, compared
 * with the committed output beside it. A stale golden fails; `UPDATE_GOLDENS=1 npx vitest run test/generator/golden`
 * rewrites them after a deliberate change (review the diff before committing).
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type GeneratedFile, textFile } from '../../generators/emit/files.ts';
import { checkOutput, writeOutput } from '../../generators/emit/output.ts';
import { SpecError } from '../../generators/load/index.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';

const GOLDEN = 'test/fixtures/golden';
const UPDATE = process.env.UPDATE_GOLDENS === '1';
/** The manifest's header line: the goldens are written and checked as a run writes and checks its output. */
const HEADER = 'Golden output of the fixture; UPDATE_GOLDENS=1 npx vitest run test/generator/golden rewrites it.';
const features = readdirSync(GOLDEN, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/**
 * The client, server and docs artifacts of the fixture, or its spec error as `error.txt` when generation must refuse
 * it.
 */
async function render(feature: string): Promise<GeneratedFile[]> {
  try {
    return await renderArtifacts(loadModel(join(GOLDEN, feature)), { artifacts: ['client', 'server', 'docs'] });
  } catch (error) {
    if (error instanceof SpecError) return [textFile('error.txt', error.message)];
    throw error;
  }
}

describe('golden output of the fixture documents', () => {
  it('covers one feature per fixture', () => {
    expect(features).toEqual([
      'by-name-params',
      'deprecated-method',
      'errors',
      'name-collisions',
      'nested-ref',
      'no-params',
    ]);
  });

  it.each(features)('%s', async (feature) => {
    const expectedDir = join(GOLDEN, feature, 'output');
    const actual = await render(feature);
    if (UPDATE) {
      rmSync(expectedDir, { recursive: true, force: true });
      writeOutput(expectedDir, actual, HEADER);
    }
    const report = checkOutput(expectedDir, actual, HEADER);
    for (const path of report.stale.filter((p) => actual.some((f) => f.path === p))) {
      expect(
        actual.find((f) => f.path === path)!.contents,
        `${expectedDir}/${path} is stale; UPDATE_GOLDENS=1 rewrites it`,
      ).toBe(readFileSync(join(expectedDir, path), 'utf8'));
    }
    expect(report, `golden ${expectedDir} differs from a fresh run; UPDATE_GOLDENS=1 rewrites it`).toEqual({
      stale: [],
      missing: [],
      extra: [],
    });
  });

  it('the collision fixture fails loudly, naming both owners and where they are written', async () => {
    const [error] = await render('name-collisions');
    expect(error!.path).toBe('error.txt');
    expect(error!.contents).toContain(
      'test/fixtures/golden/name-collisions/catalog.json#/methods/0/result/schema/properties/item',
    );
    expect(error!.contents).toContain('components/shared.json#/schemas/Item');
    // catalog.getItem and archive.getItem no longer collide: a document mixing namespaces keeps them in client names.
    expect(error!.contents).not.toMatch(/Item1|Item2/);
  });
});
