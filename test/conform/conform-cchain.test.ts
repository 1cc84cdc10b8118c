/**
 * Conformance of the C-Chain's EVM API (`--spec openrpc/c-chain`): the mock's `/ext/bc/C/rpc` passes, judged as plain
 * JSON-RPC 2.0 with params by position; a node that answers some calls wrongly (in front of the same mock) fails
 * exactly those methods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedMethodSpecs } from '../../conform/generated.ts';
import { type ConformReport, runConformance } from '../../conform/runner.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { proxy } from '../support/rpc.ts';

let node: RunningMockNode;
let validator: SpecValidator;
let rpcUrl: string;
beforeAll(async () => {
  const model = loadSpecModel('openrpc/c-chain');
  validator = new SpecValidator(model, undefined, await generatedMethodSpecs(model));
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  rpcUrl = `${node.url}/ext/bc/C/rpc`;
}, 120_000);
afterAll(() => node?.close());

const statuses = (report: ConformReport) => Object.fromEntries(report.results.map((r) => [r.method, r.status]));
const failures = (report: ConformReport) =>
  report.results.flatMap((r) =>
    r.checks.flatMap((c) => c.violations.map((v) => `${r.method} | ${c.kind} | ${v.rule}`)),
  );

describe('conform --spec openrpc/c-chain', () => {
  it("passes the mock's C-Chain: results valid, invalid params refused", { timeout: 120_000 }, async () => {
    const report = await runConformance({ url: rpcUrl, validator });
    expect(failures(report)).toEqual([]);
    expect(report.nodeVersion).toBeUndefined();
    const passed = statuses(report);
    for (const method of [
      'eth_chainId',
      'eth_getBalance',
      'eth_getLogs',
      'eth_baseFee',
      'eth_getBlockByNumber',
      'eth_getBlockReceipts',
    ])
      expect(passed[method]).toBe('PASS');
    // Writes (sends, filters) are not called without --include-writes.
    expect(passed.eth_sendRawTransaction).toBe('SKIP');
    const getBalance = report.results.find((r) => r.method === 'eth_getBalance')!;
    const refused = getBalance.checks.filter((c) => c.kind !== 'example');
    expect(refused.length).toBeGreaterThan(0);
    for (const check of refused) expect(check.error?.code).toBe(-32602);
  });

  it('fails a node answering C-Chain calls wrongly, method by method', { timeout: 120_000 }, async () => {
    const wrong = await startWrongNode(rpcUrl, {
      // A quantity as a JSON number, not hex.
      eth_blockNumber: () => ({ result: 12 }),
      // Valid params refused as invalid.
      eth_getBalance: () => ({ error: { code: -32602, message: 'invalid argument 0: bad address' } }),
      // coreth's own method missing.
      eth_baseFee: () => ({
        error: { code: -32601, message: 'the method eth_baseFee does not exist/is not available' },
      }),
      // Invalid params taken.
      eth_getTransactionCount: () => ({ result: '0x0' }),
    });
    try {
      const report = await runConformance({ url: wrong.url, validator });
      expect(new Set(failures(report))).toEqual(
        new Set([
          'eth_blockNumber | example | type',
          'eth_getBalance | example | params-accepted',
          'eth_baseFee | example | served',
          'eth_getTransactionCount | wrong-type | error-expected',
        ]),
      );
      const failed = Object.entries(statuses(report)).filter(([, status]) => status === 'FAIL');
      expect(failed.map(([method]) => method).sort()).toEqual([
        'eth_baseFee',
        'eth_blockNumber',
        'eth_getBalance',
        'eth_getTransactionCount',
      ]);
    } finally {
      await wrong.close();
    }
  });
});

type Answer = () => { result: unknown } | { error: { code: number; message: string } };

/** A JSON-RPC server on 127.0.0.1 that answers `wrong` methods its way and passes every other call to `upstream`. */
async function startWrongNode(
  upstream: string,
  wrong: Record<string, Answer>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const front = await proxy(new URL(upstream).origin, (body) => {
    const call = JSON.parse(body.toString('utf8')) as { id?: unknown; method?: string };
    const mine = wrong[call.method ?? ''];
    if (!mine) return undefined;
    const text = JSON.stringify({ jsonrpc: '2.0', id: call.id ?? null, ...mine() });
    return { status: 200, contentType: 'application/json', text };
  });
  return { url: `${front.url}${new URL(upstream).pathname}`, close: front.close };
}
