/**
 * The generator on shapes no author writes but anyone can (issue 24, item 9): a `$ref` chain of 500 to 2,000 hops,
 * whose docs once cost 17 s at 1,000 hops and over 120 s at 2,000 (a seen-set copied per hop); and a 50 MB example,
 * which once made 401 MB of output. Figures: CPU time of loading and of the docs and server artifacts per chain
 * length (linear: doubling the chain about doubles it), and the bytes each artifact writes for the large example.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModel, renderArtifacts } from '../generators/pipeline.ts';

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function writeSpec(dir: string, param: object, extra: { schemas?: object; example?: object } = {}): string {
  mkdirSync(dir);
  const document = {
    openrpc: '1.3.2',
    info: { title: 'bench', version: '1.0.0' },
    servers: [{ name: 's', url: 'http://127.0.0.1:9650/ext/t' }],
    methods: [
      {
        name: 't.get',
        params: [{ name: 'p', schema: param }],
        result: { name: 'r', schema: { type: 'array', items: { type: 'string' } } },
        examples: extra.example ? [extra.example] : [],
      },
    ],
    ...(extra.schemas ? { components: { schemas: extra.schemas } } : {}),
  };
  writeFileSync(join(dir, 't.json'), JSON.stringify(document));
  return dir;
}

export default async function bench(): Promise<void> {
  const temp = mkdtempSync(join(tmpdir(), 'bench-shapes-'));
  try {
    console.log('| $ref hops | load (CPU ms) | docs (CPU ms) | server (CPU ms) |\n| --- | --- | --- | --- |');
    for (const hops of [500, 1000, 2000]) {
      const schemas: Record<string, object> = {};
      for (let i = 0; i < hops; i++) schemas[`A${i}`] = { $ref: `#/components/schemas/A${i + 1}` };
      schemas[`A${hops}`] = { type: 'string' };
      const spec = writeSpec(join(temp, `chain-${hops}`), { $ref: '#/components/schemas/A0' }, { schemas });
      let start = cpuMs();
      const model = loadModel(spec);
      const load = cpuMs() - start;
      start = cpuMs();
      await renderArtifacts(model, { artifacts: ['docs'] });
      const docs = cpuMs() - start;
      start = cpuMs();
      await renderArtifacts(model, { artifacts: ['server'] });
      console.log(`| ${hops} | ${load.toFixed(0)} | ${docs.toFixed(0)} | ${(cpuMs() - start).toFixed(0)} |`);
    }
    const big = 'x'.repeat(50_000_000);
    const spec = writeSpec(
      join(temp, 'large'),
      { type: 'string' },
      { example: { name: 'big', params: [{ name: 'p', value: big }], result: { name: 'r', value: [] } } },
    );
    const files = await renderArtifacts(loadModel(spec));
    const bytes = new Map<string, number>();
    for (const file of files) {
      const artifact = file.path.split('/')[0]!;
      bytes.set(artifact, (bytes.get(artifact) ?? 0) + Buffer.byteLength(file.contents));
    }
    console.log('\n| artifact | MB written for a 50 MB example |\n| --- | --- |');
    for (const [artifact, size] of bytes) console.log(`| ${artifact} | ${(size / 1e6).toFixed(1)} |`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
