/**
 * The params and result validators of any spec, as its generated server package has them. For the toolkit's own spec
 * they are already built (generated/server); for a spec given with `--spec`, the generator's server artifact is
 * rendered from the same model into a temporary folder and imported from there, so conform and the proxy judge a
 * foreign document's traffic exactly as a server generated from it would, without a second schema compiler.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SpecModel } from '../generators/model/types.ts';
import { renderArtifacts } from '../generators/pipeline.ts';
import * as toolkitServer from '../generated/server/dist/index.js';
import type { MethodSpec } from '../generated/server/dist/index.js';

/** Every method's validators by wire name (a server package exports one `<endpoint>Methods` list per endpoint). */
function methodSpecsOf(serverPackage: Record<string, unknown>): Map<string, MethodSpec> {
  const byName = new Map<string, MethodSpec>();
  for (const [name, value] of Object.entries(serverPackage)) {
    if (name.endsWith('Methods') && Array.isArray(value))
      for (const spec of value as readonly MethodSpec[]) byName.set(spec.name, spec);
  }
  return byName;
}

/** The validators generated/server holds for the toolkit's own spec (`npm run generate` keeps them in step). */
export function toolkitMethodSpecs(): Map<string, MethodSpec> {
  return methodSpecsOf(toolkitServer);
}

/** Generates the server package of `model` (its dist only is needed), imports it and removes the files again. */
export async function generatedMethodSpecs(model: SpecModel): Promise<Map<string, MethodSpec>> {
  const files = await renderArtifacts(model, { artifacts: ['server'] });
  const folder = mkdtempSync(join(tmpdir(), 'conform-server-'));
  try {
    for (const file of files) {
      if (!file.path.startsWith('server/dist/') && file.path !== 'server/package.json') continue;
      const path = join(folder, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.contents);
    }
    // Its dependencies (ajv, ajv-formats, re2js, @noble/hashes) are the toolkit's own, as an install would give them.
    symlinkSync(join(import.meta.dirname, '../node_modules'), join(folder, 'node_modules'), 'dir');
    // The package's modules import one another statically: once loaded, the files are no longer needed.
    const entry = pathToFileURL(join(folder, 'server/dist/index.js')).href;
    return methodSpecsOf((await import(entry)) as Record<string, unknown>);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
