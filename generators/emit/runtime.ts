/**
 * The packages' runtimes are ordinary TypeScript in the toolkit's `runtime/<package>/` folder, type-checked and tested
 * as source; generation copies each file as it is, under the generated-file header. Spec facts reach the runtime
 * through the generated code that calls it, never by editing these files.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const RUNTIME_ROOT = resolve(import.meta.dirname, '../../runtime');

export type RuntimePackage = 'client' | 'server';

/** The module names of a package's runtime (`rpc`, `errors`...), each `runtime/<package>/<name>.ts`. */
export function runtimeModules(pkg: RuntimePackage): string[] {
  return readdirSync(join(RUNTIME_ROOT, pkg))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
}

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

const EXPORT_DECLARATION = new RegExp(
  '^export (?:declare )?(?:abstract )?(?:async )?' +
    '(?:function\\*?|const|let|class|interface|type|enum) ([A-Za-z_$][\\w$]*)',
  'gm',
);
const EXPORT_LIST = /^export (?:type )?\{([^}]*)\}/gm;

/** Every name a package's runtime exports, so no spec type can take one (the package index re-exports the runtime). */
export function runtimeExports(pkg: RuntimePackage): string[] {
  const names = new Set<string>();
  for (const name of runtimeModules(pkg)) {
    const source = readFileSync(join(RUNTIME_ROOT, pkg, `${name}.ts`), 'utf8');
    for (const match of source.matchAll(EXPORT_DECLARATION)) names.add(match[1]!);
    for (const match of source.matchAll(EXPORT_LIST)) {
      for (const item of match[1]!.split(',')) {
        const exported = item
          .trim()
          .replace(/^type /, '')
          .split(/\s+as\s+/)
          .pop();
        if (exported) names.add(exported);
      }
    }
  }
  return [...names].sort();
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
