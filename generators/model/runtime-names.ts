/**
 * The modules and exported names of the packages' runtimes (`runtime/<package>/`): no generated module or spec type
 * may take one of them. The copying of the files themselves is emit's (emit/runtime.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const RUNTIME_ROOT = resolve(import.meta.dirname, '../../runtime');

export type RuntimePackage = 'client' | 'server';

/** The module names of a package's runtime (`rpc`, `errors`...), each `runtime/<package>/<name>.ts`. */
export function runtimeModules(pkg: RuntimePackage): string[] {
  return readdirSync(join(RUNTIME_ROOT, pkg))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
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
