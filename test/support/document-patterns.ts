/** Every `pattern` of the bundled documents in the given folders (e.g. `generated/openrpc`), once each, sorted. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

export function documentPatterns(dirs: readonly string[]): string[] {
  const patterns = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) {
        if (key === 'pattern' && typeof item === 'string') patterns.add(item);
        else visit(item);
      }
  };
  for (const dir of dirs)
    for (const file of readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.json')))
      visit(JSON.parse(readFileSync(join(ROOT, dir, file), 'utf8')));
  return [...patterns].sort();
}
