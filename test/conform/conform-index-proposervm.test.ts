/**
 * The conformance runner on the endpoints and methods AvalancheGo v1.14.2 serves beyond the X- and P-Chain's: the
 * indexer, proposervm, platform.getAllValidatorsAt and the Admin API's node reads. Against the mock (indexes on) every
 * one PASSes on real answers; behind a relay that changes one thing in each answer, as a wrong node would, each FAILs
 * with the pointer of what changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformReport, runConformance } from '../../conform/runner.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { listen, send } from '../support/rpc.ts';

const METHODS = /^(index\.|proposervm\.|platform\.getAllValidatorsAt$|admin\.(getConfig|dbGet|stacktrace)$)/;
const validator = new SpecValidator(loadSpecModel());
type Json = Record<string, unknown>;

/** How the wrong node answers each method: one change to the mock's result. */
const WRONG: Record<string, (result: Json) => unknown> = {
  'index.getLastAccepted': (r) => ({ ...r, index: Number(r.index) }),
  'index.getContainerByIndex': (r) => ({ ...r, encoding: 'json' }),
  'index.getContainerRange': (r) => (r.containers as unknown[])[0],
  'index.getContainerByID': ({ timestamp: _, ...r }) => r,
  'index.getIndex': (r) => ({ ...r, extra: true }),
  'index.isAccepted': (r) => ({ isAccepted: String(r.isAccepted) }),
  'proposervm.getProposedHeight': (r) => ({ height: Number(r.height) }),
  'proposervm.getCurrentEpoch': ({ pChainHeight: _, ...r }) => r,
  'platform.getAllValidatorsAt': (r) => r.validatorSets,
  'admin.dbGet': (r) => ({ ...r, errorCode: String(r.errorCode) }),
  'admin.getConfig': () => [],
  'admin.stacktrace': () => ({ written: true }),
};

let mock: RunningMockNode;
let relay: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  mock = await startMockNode({ port: 0, world: { network: 'mainnet', accounts: 1 }, indexEnabled: true });
  mock.state.dev.mine({ chain: 'P', blocks: 2 });
  relay = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const upstream = await send(`${mock.url}${req.url}`, {
      method: req.method ?? 'POST',
      ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
    });
    let text = upstream.text;
    const request = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { method?: string };
    const change = WRONG[request.method ?? ''];
    if (change && upstream.status === 200) {
      const body = JSON.parse(text) as { result?: Json };
      if (body.result !== undefined) text = JSON.stringify({ ...body, result: change(body.result) });
    }
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
  });
});
afterAll(async () => {
  await relay.close();
  await mock.close();
});

const statuses = (report: ConformReport) =>
  Object.fromEntries(report.results.filter((r) => METHODS.test(r.method)).map((r) => [r.method, r.status]));

describe('conform on the indexer, proposervm and the new node reads', () => {
  it('passes every one against the mock, on real answers', async () => {
    const report = await runConformance({ url: mock.url, validator, includeWrites: true, methods: METHODS });
    expect(Object.keys(statuses(report)).sort()).toEqual(Object.keys(WRONG).sort());
    expect(Object.values(statuses(report))).toEqual(Object.keys(WRONG).map(() => 'PASS'));
    for (const result of report.results)
      expect(
        result.checks.some((c) => c.kind === 'example' && c.answer === 'result'),
        result.method,
      ).toBe(true);
  });

  it('fails every one against a node that answers it wrongly, at what is wrong', async () => {
    const report = await runConformance({ url: relay.url, validator, includeWrites: true, methods: METHODS });
    expect(Object.values(statuses(report))).toEqual(Object.keys(WRONG).map(() => 'FAIL'));
    const pointers = (method: string) =>
      report.results.find((r) => r.method === method)!.checks.flatMap((c) => c.violations.map((v) => v.pointer));
    expect(pointers('index.getLastAccepted')).toContain('/result/index');
    expect(pointers('proposervm.getCurrentEpoch')).toContain('/result');
    expect(pointers('admin.dbGet')).toContain('/result/errorCode');
  });
});
