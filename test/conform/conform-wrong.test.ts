/**
 * The conformance runner against hand-written nodes on 127.0.0.1: a faithful one passes, and one that answers wrongly
 * in three known ways gets exactly those three FAILs, each with its JSON pointer and rule.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformReport, runConformance } from '../../conform/runner.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { runCli } from '../support/cli.ts';
import { listen } from '../support/rpc.ts';
import { type FakeNode, faithful, startFakeNode } from './fake-node.ts';

const METHODS = /^(platform\.(getHeight|getTimestamp|getBlockchainStatus|getTx)|avm\.getTxStatus)$/;
const validator = new SpecValidator(loadSpecModel());

/** Every violation as `method | check kind | pointer | rule`, the shape the assertions compare. */
const failures = (report: ConformReport) =>
  report.results
    .flatMap((r) =>
      r.checks.flatMap((c) => c.violations.map((v) => `${r.method} | ${c.kind} | ${v.pointer} | ${v.rule}`)),
    )
    .sort();

describe('conform against a faithful node', () => {
  let node: FakeNode;
  beforeAll(async () => (node = await startFakeNode(faithful)));
  afterAll(() => node.close());

  it('passes every method, checking results and refusals', async () => {
    const report = await runConformance({ url: node.url, validator, methods: METHODS });
    expect(failures(report)).toEqual([]);
    expect(report.results.map((r) => [r.method, r.status])).toEqual([
      ['platform.getBlockchainStatus', 'PASS'],
      ['platform.getHeight', 'PASS'],
      ['platform.getTimestamp', 'PASS'],
      ['platform.getTx', 'PASS'],
      ['avm.getTxStatus', 'PASS'],
    ]);
    const getTx = report.results.find((r) => r.method === 'platform.getTx')!;
    expect(getTx.checks.map((c) => c.kind)).toEqual(
      expect.arrayContaining(['example', 'wrong-type', 'missing-required', 'unknown-encoding']),
    );
    // The node's height was asked first and used in place of nothing it does not know: no example carried a height.
    expect(report.discovered).toMatchObject({ 'height:P': 1 });
    expect(report.nodeVersion?.source).toBe('assumed');
  });
});

describe('conform against a node that answers wrongly in known ways', () => {
  let node: FakeNode;
  beforeAll(async () => {
    node = await startFakeNode({
      ...faithful,
      // 1. a field of the wrong type: the height as a bare number instead of a decimal string
      'platform.getHeight': () => ({ result: { height: 42 } }),
      // 2. a missing field
      'platform.getTimestamp': () => ({ result: {} }),
      // 3. a result where txID was left out: the node reads the zero ID and refuses it ("nil transaction ID");
      //    txID has no x-zero-when-absent, so an omission must get an error
      'avm.getTxStatus': (params) =>
        'txID' in params ? faithful['avm.getTxStatus']!(params) : { result: { status: 'Pending' } },
    });
  });
  afterAll(() => node.close());

  it('reports exactly those FAILs, each with pointer and rule', async () => {
    const report = await runConformance({ url: node.url, validator, methods: METHODS });
    expect(report.results.map((r) => [r.method, r.status])).toEqual([
      ['platform.getBlockchainStatus', 'PASS'],
      ['platform.getHeight', 'FAIL'],
      ['platform.getTimestamp', 'FAIL'],
      ['platform.getTx', 'PASS'],
      ['avm.getTxStatus', 'FAIL'],
    ]);
    expect(failures(report)).toEqual([
      'avm.getTxStatus | missing-required | /result | error-expected',
      'platform.getHeight | example | /result/height | type',
      'platform.getTimestamp | example | /result | required',
    ]);
    const timestamp = report.results.find((r) => r.method === 'platform.getTimestamp')!.checks[0]!.violations[0]!;
    expect(timestamp.message).toBe("must have required property 'timestamp'");
  });

  it('reports an undocumented error and a wrong decode error', async () => {
    const odd = await startFakeNode({
      ...faithful,
      'platform.getBlockchainStatus': () => ({ error: { code: -32000, message: 'something the spec never mentions' } }),
      'platform.getTx': (p) =>
        p.encoding === 'base64'
          ? { error: { code: -32000, message: "couldn't get tx: not found" } }
          : faithful['platform.getTx']!(p),
    });
    try {
      const report = await runConformance({
        url: odd.url,
        validator,
        methods: /^platform\.(getBlockchainStatus|getTx)$/,
      });
      const examples = validator.methods.get('platform.getBlockchainStatus')!.method.examples.length;
      expect(failures(report)).toEqual([
        ...Array<string>(examples).fill('platform.getBlockchainStatus | example | /error | documented-errors'),
        'platform.getBlockchainStatus | missing-required | /error | documented-errors',
        'platform.getBlockchainStatus | wrong-type | /error | documented-errors',
        'platform.getTx | unknown-encoding | /error | decode-error',
      ]);
    } finally {
      await odd.close();
    }
  });
});

describe('a node that stops answering mid-way', () => {
  it('keeps the FAILs found before a 503, and SKIPs only a method with nothing checked', async () => {
    let txCalls = 0;
    const server = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { id, method } = JSON.parse(Buffer.concat(chunks).toString()) as { id: number; method: string };
        const json = (body: object) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id, ...body }));
        if (method === 'platform.getTx' && ++txCalls === 1) json({ result: { tx: 'not hex', encoding: 'hex' } });
        else if (method === 'platform.getTx' || method === 'platform.getTimestamp')
          res.writeHead(503).end('node not ready');
        else json({ error: { code: -32000, message: `rpc: can't find method "${method}"` } });
      });
    });
    try {
      const report = await runConformance({
        url: server.url,
        validator,
        methods: /^platform\.(getTx|getTimestamp)$/,
      });
      expect(report.results.map((r) => [r.method, r.status])).toEqual([
        ['platform.getTimestamp', 'SKIP'],
        ['platform.getTx', 'FAIL'],
      ]);
      expect(failures(report)).toEqual(['platform.getTx | example | /result/tx | format']);
      expect(txCalls).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('npm run conform (the CLI)', () => {
  let node: FakeNode;
  beforeAll(async () => (node = await startFakeNode({ ...faithful, 'platform.getTimestamp': () => ({ result: {} }) })));
  afterAll(() => node.close());
  const run = (args: string[]) => runCli('conform/cli.ts', args);

  it('prints the table, writes --json and exits 1 on a FAIL', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'conform-')), 'report.json');
    const { code, stdout } = await run([
      '--url',
      node.url,
      '--methods',
      'platform\\.get(Height|Timestamp)$',
      '--json',
      file,
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/platform\.getHeight\s+PASS/);
    expect(stdout).toMatch(
      /platform\.getTimestamp\s+FAIL\s+example "[^"]+": \/result \[required\] must have required property 'timestamp'/,
    );
    expect(stdout).toContain('1 PASS, 1 FAIL, 0 SKIP');
    const json = JSON.parse(readFileSync(file, 'utf8')) as ConformReport;
    expect(json.totals).toEqual({ PASS: 1, FAIL: 1, SKIP: 0 });
  });

  it('exits 0 when nothing failed and 2 on bad usage or an unreachable node', async () => {
    expect((await run(['--url', node.url, '--methods', '^platform\\.getHeight$'])).code).toBe(0);
    const usage = await run(['--methods', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--url is required');
    const down = await run(['--url', 'http://127.0.0.1:9', '--methods', 'getHeight']);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/cannot reach the node at http:\/\/127\.0\.0\.1:9/);
  });

  it('exits 2 on a base URL that is not a node (a path typo: HTTP 404 everywhere), naming the cause', async () => {
    const typo = await run(['--url', `${node.url}/ext`]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      `conform: ${node.url}/ext is not an AvalancheGo node: every endpoint answered HTTP 404 (/ext/bc/P`,
    );
    expect(typo.stderr).toContain('without a path');
  });

  it('exits 1 when every selected method was skipped, saying why', async () => {
    const writes = await run(['--url', node.url, '--methods', '^keystore\\.(createUser|deleteUser)$']);
    expect(writes.code).toBe(1);
    expect(writes.stdout).toMatch(/0 PASS, 0 FAIL, 2 SKIP/);
    expect(writes.stderr).toBe(
      'conform: nothing was checked: all 2 selected methods were skipped (2 × write method (changes node or chain ' +
        'state; --include-writes calls it))\n',
    );
  });
});
