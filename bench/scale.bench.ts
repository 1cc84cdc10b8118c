/**
 * How generation scales: the largest public document in test/fixtures/corpus (starknet's node API: 141 KB, 410
 * references; targets under 10 s and 500 MB), and synthetic documents of 1,000 to 10,000 methods (time and peak
 * memory per 1,000 methods should stay flat; target under 1 GB at 10,000). Every run is the CLI generating every
 * artifact, as a user runs it; SCALE_BY_ARTIFACT=1 adds a run of each artifact alone, to show which sets the peak.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SIZES = (process.env.SCALE_SIZES ?? '1000,5000,10000').split(',').map(Number);

/** A plain OpenRPC document of `count` methods sharing a few components, each with params, a result and an example. */
export function syntheticDocument(count: number): Record<string, unknown> {
  const methods = Array.from({ length: count }, (_, i) => ({
    name: `bench_method${i}`,
    summary: `Method ${i}.`,
    params: [
      { name: 'address', required: true, schema: { $ref: '#/components/schemas/Address' } },
      { name: 'page', schema: { $ref: '#/components/schemas/Page' } },
    ],
    result: {
      name: 'result',
      schema: {
        type: 'object',
        required: ['items'],
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
          next: { type: 'string' },
        },
      },
    },
    errors: [{ $ref: '#/components/errors/NotFound' }],
    examples: [
      {
        name: 'one',
        params: [{ name: 'address', value: `0x${'ab'.repeat(20)}` }],
        result: { name: 'result', value: { items: [{ id: String(i), tags: [] }] } },
      },
    ],
  }));
  return {
    openrpc: '1.3.2',
    info: { title: `Synthetic ${count}`, version: '1.0.0' },
    servers: [{ name: 'local', url: 'http://127.0.0.1:8545' }],
    methods,
    components: {
      schemas: {
        Address: { type: 'string', pattern: '^0x[0-9a-f]{40}$' },
        Page: { type: 'object', properties: { limit: { type: 'integer', minimum: 1 }, cursor: { type: 'string' } } },
        Item: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string' },
            tags: { type: 'array', items: { type: 'string' } },
            child: { $ref: '#/components/schemas/Item' },
          },
        },
      },
      errors: { NotFound: { code: 4004, message: 'not found' } },
    },
  };
}

interface Run {
  ms: number;
  /**
   * CPU time of the generator's process, threads included: on a shared machine, wall time mostly measures the
   * neighbours.
   */
  cpuMs: number;
  maxRssMb: number;
}

function generate(spec: string, out: string, work: string, artifact?: string): Run {
  const preload = join(work, 'max-rss.mjs');
  writeFileSync(
    preload,
    "process.on('exit', () => { const u = process.resourceUsage(); " +
      'process.stderr.write(`\\nmax-rss-kb ${u.maxRSS} cpu-us ${u.userCPUTime + u.systemCPUTime}\\n`); });\n',
  );
  const start = performance.now();
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      preload,
      join(ROOT, 'generators/bin.js'),
      '--spec',
      spec,
      '--out',
      out,
      ...(artifact ? ['--artifact', artifact] : []),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  const ms = performance.now() - start;
  if (child.status !== 0) throw new Error(`generating ${spec} failed:\n${child.stderr.slice(0, 2000)}`);
  const [, rss = '0', cpu = '0'] = /max-rss-kb (\d+) cpu-us (\d+)/.exec(child.stderr) ?? [];
  return { ms, cpuMs: Number(cpu) / 1000, maxRssMb: Number(rss) / 1024 };
}

/**
 * With SCALE_BY_ARTIFACT=1, each artifact is also generated on its own: which one sets the peak (each run loads the
 * spec, so each peak includes the model's).
 */
const BY_ARTIFACT = process.env.SCALE_BY_ARTIFACT === '1';
const ARTIFACT_NAMES = ['openrpc', 'client', 'docs', 'server'];

function byArtifact(dir: string, work: string): string {
  return ARTIFACT_NAMES.map((artifact) => {
    const out = join(work, `out-${artifact}`);
    const run = generate(join(dir, 'synthetic.json'), out, work, artifact);
    rmSync(out, { recursive: true, force: true });
    return `${artifact} ${(run.cpuMs / 1000).toFixed(1)} s CPU, ${run.maxRssMb.toFixed(0)} MB`;
  }).join('; ');
}

export default async function scaleBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'scale-bench-'));
  try {
    const largest = generate(join(ROOT, 'test/fixtures/corpus/starknet'), join(work, 'starknet-out'), work);
    console.log(
      `largest public document (starknet node API, 141 KB, 410 refs): ${(largest.ms / 1000).toFixed(1)} s wall, ` +
        `${(largest.cpuMs / 1000).toFixed(1)} s CPU, ${largest.maxRssMb.toFixed(0)} MB (targets < 10 s, < 500 MB)`,
    );
    for (const count of SIZES) {
      const dir = join(work, `synthetic-${count}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'synthetic.json'), JSON.stringify(syntheticDocument(count)));
      const run = generate(join(dir, 'synthetic.json'), join(work, `out-${count}`), work);
      const per = count / 1000;
      console.log(
        `${count} methods: ${(run.ms / 1000).toFixed(1)} s wall, ${(run.cpuMs / 1000).toFixed(1)} s CPU, ` +
          `${run.maxRssMb.toFixed(0)} MB; per 1,000 methods ${(run.cpuMs / 1000 / per).toFixed(2)} s CPU, ` +
          `${(run.maxRssMb / per).toFixed(0)} MB`,
      );
      rmSync(join(work, `out-${count}`), { recursive: true, force: true });
      if (BY_ARTIFACT) console.log(`  ${count} methods, each artifact alone: ${byArtifact(dir, work)}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
