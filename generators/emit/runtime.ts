/**
 * The packages' runtimes are ordinary TypeScript in the toolkit's `runtime/<package>/` folder, type-checked and tested
 * as source; generation copies each file as it is, under the generated-file header. Spec facts reach the runtime
 * through the generated code that calls it, never by editing these files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUNTIME_ROOT, type RuntimePackage, runtimeModules } from '../model/runtime-names.ts';

/** A relative import of a `.ts` file, as the toolkit's sources spell them (Node runs them as they are). */
const RELATIVE_TS_IMPORT = /(from '\.\.?\/[^']*)\.ts'/g;

/**
 * The runtime's files as the package ships them: `<dir>/<name>.ts`, with the header as their first line, importing
 * each other by the `.js` names they have once compiled.
 */
export function runtimeFiles(
  pkg: RuntimePackage,
  dir: string,
  header: string,
): Array<{ path: string; contents: string }> {
  return runtimeModules(pkg).map((name) => ({
    path: `${dir}/${name}.ts`,
    contents: `// ${header}\n${readFileSync(join(RUNTIME_ROOT, pkg, `${name}.ts`), 'utf8').replace(RELATIVE_TS_IMPORT, "$1.js'")}`,
  }));
}

const BARE_IMPORT = /^import [^;]*? from '((?:@[^/']+\/)?[^./'][^/']*)[^']*';/gm;

/**
 * The packages a runtime imports (`@noble/hashes` for SHA-256), at the version the toolkit itself depends on, so the
 * generated package runs against what the runtime's tests ran against.
 */
export function runtimeDependencies(pkg: RuntimePackage): Record<string, string> {
  const toolkit = JSON.parse(readFileSync(join(RUNTIME_ROOT, '../package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const dependencies: Record<string, string> = {};
  for (const name of runtimeModules(pkg)) {
    for (const match of readFileSync(join(RUNTIME_ROOT, pkg, `${name}.ts`), 'utf8').matchAll(BARE_IMPORT)) {
      const dependency = match[1]!;
      if (dependency.startsWith('node:')) continue;
      const version = toolkit.dependencies[dependency];
      if (!version)
        throw new Error(
          `runtime/${pkg}/${name}.ts imports ${dependency}, which is not among the toolkit's dependencies`,
        );
      dependencies[dependency] = version;
    }
  }
  return dependencies;
}
