/**
 * `npm run diff -- <old> <new>` (spec folders, endpoint documents or bundled documents) or
 * `npm run diff -- --from v1.12.1 --to v1.14.2` (two releases of this spec). Exit code 1 when a change breaks the
 * audience of `--fail-on`, 2 on a usage error.
 */
import { writeFileSync } from 'node:fs';
import { exitWithUsage, forTerminal, optionalNodeVersion, parseCli } from '../conform/cli-common.ts';
import {
  compareVersions,
  namedReleases,
  newestSpecVersion,
  oldestDescribedRelease,
} from '../generators/model/versions.ts';
import { type Revision, diffSpecs, hasBreaking } from './compare.ts';
import { loadRevision } from './load.ts';
import { jsonReport, textReport } from './report.ts';

const USAGE = `Usage: npm run diff -- <old> <new> [options]
       npm run diff -- --from <vX.Y.Z> --to <vX.Y.Z> [--spec <folder>] [options]
  <old> <new>             two spec revisions: folders of endpoint documents, or single documents (bundled or not)
  --from, --to <vX.Y.Z>   compare two AvalancheGo releases as this spec describes them
  --spec <folder>         the spec for --from/--to (default openrpc)
  --format text|json      the report on stdout (default text)
  --json <file>           also write the JSON report to a file
  --fail-on <audience>    clients, implementers or any (default): exit 1 when a change breaks it`;

const fail = (message: string): never => exitWithUsage('diff', USAGE, message);
const OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  spec: { type: 'string' },
  format: { type: 'string' },
  json: { type: 'string' },
  'fail-on': { type: 'string' },
} as const;
// The two specs are the arguments that are not flags.
const positionals: string[] = [];
const values = parseCli('diff', USAGE, OPTIONS, { positionals });
const format = values.format ?? 'text';
if (format !== 'text' && format !== 'json') fail(`--format is text or json, not "${format}"`);
const failOn = values['fail-on'] ?? 'any';
if (failOn !== 'clients' && failOn !== 'implementers' && failOn !== 'any')
  fail(`--fail-on is clients, implementers or any, not "${failOn}"`);

let older: Revision;
let newer: Revision;
let labels: [string, string];
try {
  if (values.from || values.to) {
    const from = optionalNodeVersion(values.from, fail, '--from') ?? fail('--to needs --from');
    const to = optionalNodeVersion(values.to, fail, '--to') ?? fail('--from needs --to');
    if (positionals.length > 0) fail('give either two specs or --from/--to, not both');
    const model = loadRevision(values.spec ?? 'openrpc');
    // A release past the newest the spec describes would compare as that newest one, and report "no changes".
    const newest = namedReleases(model).at(-1) ?? newestSpecVersion(model);
    // Nor does it describe releases before its oldest.
    const oldest = oldestDescribedRelease(model);
    // Between the two, a release it does not name may not exist at all (v1.13.99): comparing it would be a guess.
    const named = new Set([...namedReleases(model), ...(oldest ? [oldest] : [])]);
    for (const release of [from, to]) {
      if (compareVersions(release, newest) > 0)
        fail(`the spec describes releases up to ${newest}; it says nothing of ${release}`);
      if (oldest && compareVersions(release, oldest) < 0)
        fail(`the spec describes releases from ${oldest}; it says nothing of ${release}`);
      if (named.size > 0 && !named.has(release))
        fail(`the spec names no release ${release}; it names ${[...named].sort(compareVersions).join(', ')}`);
    }
    [older, newer, labels] = [{ model, version: from }, { model, version: to }, [from, to]];
  } else {
    if (positionals.length !== 2) fail('give two specs to compare, or --from and --to');
    [older, newer, labels] = [
      { model: loadRevision(positionals[0]!) },
      { model: loadRevision(positionals[1]!) },
      [positionals[0]!, positionals[1]!],
    ];
  }
} catch (error) {
  process.stderr.write(`diff: ${forTerminal((error as Error).message)}\n`);
  process.exit(2);
}

const changes = diffSpecs(older, newer);
// JSON escapes C0 controls but not C1's or bidirectional ones; written as \u escapes it stays the same JSON.
process.stdout.write(forTerminal(format === 'json' ? jsonReport(...labels, changes) : textReport(...labels, changes)));
if (values.json) writeFileSync(values.json, jsonReport(...labels, changes));
process.exit(hasBreaking(changes, failOn as 'clients' | 'implementers' | 'any') ? 1 : 0);
