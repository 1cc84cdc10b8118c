/**
 * `npm run bench`: runs every `bench/*.bench.ts` in turn. Each compares the toolkit against a baseline measured in
 * the same run and prints its figures; nothing here asserts a time.
 */
import { readdirSync } from 'node:fs';

const only = process.argv[2];
for (const file of readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n## ${file.replace('.bench.ts', '')}`);
  const bench = (await import(`./${file}`)) as { default: () => Promise<void> };
  await bench.default();
}
