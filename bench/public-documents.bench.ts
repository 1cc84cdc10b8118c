/**
 * Generation time of the largest public documents the toolkit reads, against @open-rpc/generator in the same run:
 * Starknet's main API (test/fixtures/corpus/starknet, 141 KB), Lotus' full node API (test/fixtures/corpus/lotus-full,
 * 1.2 MB, every schema inline) and ethereum/execution-apis' assembled document (openrpc/vendor/execution-apis, 2 MB,
 * 86 methods, OpenRPC 1.4.1, examples that do not match their schemas). Ours:
 * every artifact (client, server, docs, bundled document); the baseline: its TypeScript client and server. A run of
 * the baseline that fails or passes the time limit is reported as such, with its first line of error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Run, timeNode } from './generate.bench.ts';
import { median } from './median.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = 3;
/** The baseline has been seen to run out of memory on public documents: it gets this long per run. */
const BASELINE_LIMIT_MS = 180_000;
const DOCUMENTS = [
  { name: 'starknet', file: 'test/fixtures/corpus/starknet/starknet_api_openrpc.json' },
  { name: 'lotus', file: 'test/fixtures/corpus/lotus-full/full.json' },
  { name: 'execution-apis', file: 'openrpc/vendor/execution-apis/refs-openrpc.json' },
];

function ours(work: string, file: string, round: number): Run {
  return timeNode([join(ROOT, 'generators/bin.js'), '--spec', file, '--out', join(work, `ours-${round}`)], work);
}

function baseline(work: string, name: string, file: string, round: number): Run | string {
  const config = join(work, `${name}-config.json`);
  const components = [
    { type: 'client', language: 'typescript', name: `${name}-client` },
    { type: 'server', language: 'typescript', name: `${name}-server` },
  ];
  const outDir = join(work, `baseline-${round}`);
  writeFileSync(config, JSON.stringify({ openrpcDocument: join(ROOT, file), outDir, components }));
  const cli = join(ROOT, 'node_modules/@open-rpc/generator/build/cli.js');
  try {
    return timeNode([cli, 'generate', '-c', config], work, BASELINE_LIMIT_MS);
  } catch (error) {
    const [command = 'failed', ...rest] = (error as Error).message.split('\n').filter((line) => line.trim());
    const cause = rest.find((line) => /error|heap|memory/i.test(line));
    return `${command.replace(/^.* (exited|was stopped)/, '$1')}${cause ? `: ${cause.trim()}` : ''}`;
  }
}

export default async function publicDocumentsBench(): Promise<void> {
  for (const { name, file } of DOCUMENTS) {
    const work = mkdtempSync(join(tmpdir(), `public-bench-${name}-`));
    try {
      const mine: Run[] = [];
      const theirs: Array<Run | string> = [];
      for (let round = 0; round < ROUNDS; round++) {
        mine.push(ours(work, file, round));
        // A baseline that fails fails again: it is not run after its first failure.
        if (!theirs.some((run) => typeof run === 'string')) theirs.push(baseline(work, name, file, round));
      }
      const oursMs = median(mine.map((r) => r.ms));
      console.log(
        `${name} (${file}): ours, every artifact, median ${oursMs.toFixed(0)} ms ` +
          `(${mine.map((r) => r.ms.toFixed(0)).join(', ')}), peak ${(Math.max(...mine.map((r) => r.maxRssKb)) / 1024).toFixed(0)} MB`,
      );
      const runs = theirs.filter((r): r is Run => typeof r !== 'string');
      const failures = theirs.filter((r): r is string => typeof r === 'string');
      if (runs.length > 0) {
        const theirsMs = median(runs.map((r) => r.ms));
        console.log(
          `  @open-rpc/generator, TS client + server: median ${theirsMs.toFixed(0)} ms ` +
            `(${runs.map((r) => r.ms.toFixed(0)).join(', ')}), ratio ours / theirs ${(oursMs / theirsMs).toFixed(2)}`,
        );
      }
      if (failures.length > 0) console.log(`  @open-rpc/generator failed (not run again): ${failures[0]}`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}
