/**
 * Generation speed against the standard tool, in one run on the same six bundled documents: our full generation
 * (every artifact, all documents, the CLI spawned as a build step runs it) against @open-rpc/generator making its
 * TypeScript client and server for each document (one CLI run per document, as its users run it), alternating the two.
 * Also: the size of all six generated clients minified and gzipped, and the peak memory of each generator.
 * Targets: ours at most half the baseline's time; the clients at most 10 KB.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { median } from './median.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = 3;

export interface Run {
  ms: number;
  /** CPU time of the process, every thread included: on a loaded host, wall time mostly measures the neighbours. */
  cpuMs: number;
  maxRssKb: number;
}

/**
 * Runs node with `args`, reporting wall time and the child's peak resident memory (from a preload that prints it at
 * exit).
 */
export function timeNode(args: string[], work: string, timeoutMs?: number, env?: NodeJS.ProcessEnv): Run {
  const preload = join(work, 'max-rss.mjs');
  writeFileSync(
    preload,
    "process.on('exit', () => { const u = process.resourceUsage(); " +
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a preload, whose template Node evaluates
      'process.stderr.write(`\\nmax-rss-kb ${u.maxRSS} cpu-us ${u.userCPUTime + u.systemCPUTime}\\n`); });\n',
  );
  const start = performance.now();
  const child = spawnSync(process.execPath, ['--import', preload, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    ...(timeoutMs ? { timeout: timeoutMs } : {}),
    ...(env ? { env } : {}),
  });
  const ms = performance.now() - start;
  if (child.status !== 0) {
    const how = child.signal
      ? `was stopped by ${child.signal}${timeoutMs && ms >= timeoutMs ? ` after ${timeoutMs} ms` : ''}`
      : `exited ${child.status}`;
    throw new Error(`node ${args.join(' ')} ${how}:\n${child.stderr}`);
  }
  const [, rss = '0', cpu = '0'] = /max-rss-kb (\d+) cpu-us (\d+)/.exec(child.stderr) ?? [];
  return { ms, cpuMs: Number(cpu) / 1000, maxRssKb: Number(rss) };
}

function ours(work: string, round: number, ...only: string[]): Run {
  return timeNode(
    [join(ROOT, 'generators/bin.js'), '--out', join(work, `ours-${round}-${only.join('-')}`), ...only],
    work,
    undefined,
    // A compile cache of the bench's own: node_modules may be shared with other checkouts, whose runs read its cache.
    { ...process.env, NODE_COMPILE_CACHE: join(work, 'node-compile') },
  );
}

/**
 * @open-rpc/generator, once per document; its validator wants a server URL with a scheme, so `{baseUrl}` is spelt out.
 */
function baseline(work: string, round: number, documents: string[]): Run {
  const cli = join(ROOT, 'node_modules/@open-rpc/generator/build/cli.js');
  let ms = 0;
  let cpuMs = 0;
  let maxRssKb = 0;
  for (const document of documents) {
    const name = document.replace(/\.json$/, '');
    const text = readFileSync(join(ROOT, 'generated/openrpc', document), 'utf8').replaceAll(
      '"{baseUrl}/',
      '"http://127.0.0.1:9650/',
    );
    const documentPath = join(work, `${name}.json`);
    writeFileSync(documentPath, text);
    const config = join(work, `${name}-config.json`);
    const components = [
      { type: 'client', language: 'typescript', name: `${name}-client` },
      { type: 'server', language: 'typescript', name: `${name}-server` },
    ];
    writeFileSync(
      config,
      JSON.stringify({ openrpcDocument: documentPath, outDir: join(work, `baseline-${round}`, name), components }),
    );
    const run = timeNode([cli, 'generate', '-c', config], work);
    ms += run.ms;
    cpuMs += run.cpuMs;
    maxRssKb = Math.max(maxRssKb, run.maxRssKb);
  }
  return { ms, cpuMs, maxRssKb };
}

async function clientSize(): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    entryPoints: [join(ROOT, 'generated/client/dist/index.js')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

export default async function generateBench(): Promise<void> {
  const documents = readdirSync(join(ROOT, 'generated/openrpc'))
    .filter((f) => f.endsWith('.json'))
    .sort();
  const work = mkdtempSync(join(tmpdir(), 'generate-bench-'));
  try {
    // Node's compile cache (generators/compile-cache.js) is empty after installing: that first run is timed once.
    const cold = ours(work, -1);
    const mine: Run[] = [];
    const theirs: Run[] = [];
    // Where our time goes: loading and checking the spec alone, and the client alone on top of it.
    const validateOnly: Run[] = [];
    const clientOnly: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      mine.push(ours(work, round));
      theirs.push(baseline(work, round, documents));
      validateOnly.push(ours(work, round, '--validate'));
      clientOnly.push(ours(work, round, '--artifact', 'client'));
    }
    const oursMs = median(mine.map((r) => r.ms));
    const theirsMs = median(theirs.map((r) => r.ms));
    console.log(`documents: ${documents.length} (${documents.join(', ')}), ${ROUNDS} alternating rounds`);
    console.log(
      `ours, full generation (every artifact):            median ${oursMs.toFixed(0)} ms  ` +
        `(${mine.map((r) => r.ms.toFixed(0)).join(', ')})`,
    );
    console.log(
      `@open-rpc/generator, TS client + server per doc:   median ${theirsMs.toFixed(0)} ms  ` +
        `(${theirs.map((r) => r.ms.toFixed(0)).join(', ')})`,
    );
    console.log(`ratio ours / @open-rpc/generator: ${(oursMs / theirsMs).toFixed(2)} (target <= 0.50)`);
    const cpu = (runs: Run[]) => median(runs.map((r) => r.cpuMs));
    console.log(
      `  in CPU time (every thread): ours median ${cpu(mine).toFixed(0)} ms, @open-rpc/generator ` +
        `${cpu(theirs).toFixed(0)} ms, ratio ${(cpu(mine) / cpu(theirs)).toFixed(2)}`,
    );
    console.log(`  ours, first run after installing (no compile cache yet): ${cold.ms.toFixed(0)} ms`);
    console.log(
      `  of ours: loading and checking the spec alone (--validate) median ` +
        `${median(validateOnly.map((r) => r.ms)).toFixed(0)} ms; with the client artifact only, median ` +
        `${median(clientOnly.map((r) => r.ms)).toFixed(0)} ms`,
    );
    console.log(
      `peak memory: ours ${(Math.max(...mine.map((r) => r.maxRssKb)) / 1024).toFixed(0)} MB, @open-rpc/generator ` +
        `${(Math.max(...theirs.map((r) => r.maxRssKb)) / 1024).toFixed(0)} MB per run`,
    );
    const size = await clientSize();
    console.log(
      `client, all ${documents.length} endpoints: ${(size.minified / 1024).toFixed(1)} KB minified, ` +
        `${(size.gzipped / 1024).toFixed(1)} KB gzipped (target <= 10 KB)`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
