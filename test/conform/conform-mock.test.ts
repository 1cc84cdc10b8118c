/**
 * The conformance runner against the project's own mock node, started as `npm run mock` starts it: no FAIL, and
 * across three node releases (the newest, the last with the Keystore API, the last with the AVM static API) every
 * method of the spec is called and PASSes at least once.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConformReport, runConformance } from '../../conform/runner.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { P_CHAIN_ID, X_CHAIN_ID } from '../../mock/state.ts';
import { runCli } from '../support/cli.ts';
import { callRpc } from '../support/rpc.ts';

const validator = new SpecValidator(loadSpecModel());
let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

async function conformMock(nodeVersion?: string): Promise<ConformReport> {
  // The spec's examples are Mainnet's: their addresses and IDs are valid on a simulated Mainnet.
  node = await startMockNode({
    port: 0,
    host: '127.0.0.1',
    world: { network: 'mainnet' },
    // The indexes are off by default, as on the node; conformance covers them too.
    indexEnabled: true,
    ...(nodeVersion ? { nodeVersion } : {}),
  });
  return runConformance({ url: node.url, validator, includeWrites: true, ...(nodeVersion ? { nodeVersion } : {}) });
}

const failures = (report: ConformReport) =>
  report.results
    .filter((r) => r.status === 'FAIL')
    .flatMap((r) =>
      r.checks.flatMap((c) => c.violations.map((v) => `${r.method} ${c.name}: ${v.pointer} [${v.rule}] ${v.message}`)),
    );

describe('conform against the mock node', () => {
  const passed = new Set<string>();

  it.each([
    ['newest', undefined],
    ['v1.12.1', 'v1.12.1'],
    ['v1.10.17', 'v1.10.17'],
    ['v1.10.5', 'v1.10.5'],
  ])('node release %s: every method PASSes or is SKIPped for its release', async (_label, version) => {
    const report = await conformMock(version);
    expect(failures(report)).toEqual([]);
    for (const result of report.results) {
      if (result.status === 'PASS') passed.add(result.method);
      // A SKIP is only ever the release's doing: with writes included, nothing else may be left out.
      else
        expect(result.reason).toMatch(
          new RegExp(
            String.raw`^(not served by v\d+\.\d+\.\d+ \((served since|removed in|last served by) v|` +
              String.raw`served only by the mock node \(x-mock-only\))`,
          ),
        );
    }
    // Each PASS rests on real calls: results checked and invalid requests refused.
    const getTx = report.results.find((r) => r.method === 'platform.getTx')!;
    expect(getTx.checks.filter((c) => c.kind === 'example' && c.answer === 'result').length).toBeGreaterThan(0);
    expect(getTx.checks.filter((c) => c.kind !== 'example').length).toBeGreaterThan(0);
  });

  it('has called every method of the spec with a PASS in some release, and never a mock-only one', () => {
    const mockOnly = (name: string) => validator.methods.get(name)!.endpoint.mockOnly;
    expect([...validator.methods.keys()].filter((name) => !passed.has(name) && !mockOnly(name))).toEqual([]);
    // `passed` also holds the coherence rows, which are no method of the spec.
    expect([...passed].filter((name) => validator.methods.has(name) && mockOnly(name))).toEqual([]);
  });

  it('finds live params on the node and uses them', async () => {
    const report = await conformMock();
    // A network at genesis has no subnet and no L1 validator to find.
    expect(Object.keys(report.discovered)).toEqual(
      expect.arrayContaining([
        'height:P',
        'height:X',
        'txID:P',
        'txID:X',
        'address:P',
        'blockchainID',
        'nodeID',
        'assetID',
      ]),
    );
    const { height } = (await callRpc<{ height: string }>(`${node!.url}/ext/bc/P`, 'platform.getHeight')).result!;
    const getBlock = report.results.find((r) => r.method === 'platform.getBlockByHeight')!;
    // Every numeric example height becomes the node's; a named one ("proposed") stays.
    const expected = validator.methods
      .get('platform.getBlockByHeight')!
      .method.examples.map((e) => (/^\d+$/.test(String(e.params.height)) ? height : String(e.params.height)));
    expect(getBlock.checks.filter((c) => c.kind === 'example').map((c) => String(c.params.height))).toEqual(expected);
  });
});

describe('npm run conform -- --blockchain-id', () => {
  const run = (args: string[]) => runCli('conform/cli.ts', args);
  const avmReads = ['--methods', '^avm\\.get(Height|TxFee)$'];

  it('checks the AVM chain at /ext/bc/<blockchain ID>', async () => {
    node = await startMockNode({ port: 0, host: '127.0.0.1' });
    const file = join(mkdtempSync(join(tmpdir(), 'conform-')), 'report.json');
    const { code, stdout } = await run(['--url', node.url, '--blockchain-id', X_CHAIN_ID, ...avmReads, '--json', file]);
    expect(code).toBe(0);
    expect(stdout).toContain('2 PASS, 0 FAIL, 0 SKIP');
    const report = JSON.parse(readFileSync(file, 'utf8')) as ConformReport;
    expect(report.results.map((r) => r.endpoint)).toEqual([`/ext/bc/${X_CHAIN_ID}`, `/ext/bc/${X_CHAIN_ID}`]);
  });

  it('calls the chain at that ID: the P-Chain has no avm service, which the named release serves', async () => {
    node = await startMockNode({ port: 0, host: '127.0.0.1' });
    const { code, stdout } = await run(['--url', node.url, '--blockchain-id', P_CHAIN_ID, ...avmReads]);
    expect(code).toBe(1);
    expect(stdout).toContain('Node version: v1.14.2 (reported by info.getNodeVersion)');
    expect(stdout).toMatch(
      new RegExp(
        String.raw`avm\.getHeight\s+FAIL\s+example "[^"]+": \/error \[served\] ` +
          String.raw`v1\.14\.2 should serve avm\.getHeight, ` +
          String.raw`but the node answers "rpc: can't find service "avm\.GetHeight""`,
      ),
    );
    expect(stdout).toContain('0 PASS, 2 FAIL, 0 SKIP');
  });
});
