/**
 * `npm run bench [-- <name>...]`: runs every `bench/*.bench.ts` in turn, or the named ones. Each compares the toolkit
 * against a baseline measured in the same run and prints its figures; nothing here asserts a time.
 */
import { readdirSync } from 'node:fs';
import { exitWithUsage, parseCli } from '../conform/cli-common.ts';

const names = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace('.bench.ts', ''))
  .sort();
const listed = names
  .join(', ')
  .replace(/(.{1,90})(?:, |$)/g, '                $1,\n')
  .slice(0, -2);
const USAGE = `Usage: npm run bench [-- <name>...]
  <name>        run only this bench (repeatable; default: all), one of:
${listed}
  --help, -h    this text
Figures and what they justify: bench/README.md. Some benches read environment variables documented there.`;

const chosen: string[] = [];
parseCli('bench', USAGE, {}, { positionals: chosen });
const unknown = chosen.filter((name) => !names.includes(name));
if (unknown.length > 0) exitWithUsage('bench', USAGE, `no bench named ${unknown.join(', ')}`);
for (const name of chosen.length > 0 ? chosen : names) {
  console.log(`\n## ${name}`);
  const bench = (await import(`./${name}.bench.ts`)) as { default: () => Promise<void> };
  await bench.default();
}
