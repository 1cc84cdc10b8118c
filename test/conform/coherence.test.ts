/**
 * The coherence rows of `npm run conform`: the mock node, whose answers come from one simulated network, passes each;
 * the mock as it was (every answer on its own, ./synthetic-node.ts) fails each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COHERENCE_ROWS } from '../../conform/coherence.ts';
import { type ConformReport, runConformance } from '../../conform/runner.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { startSyntheticNode } from './synthetic-node.ts';

const validator = new SpecValidator(loadSpecModel());
const rows = (report: ConformReport) =>
  Object.fromEntries(report.results.map((r) => [r.method.replace('coherence: ', ''), r.status]));

describe('coherence rows', () => {
  let node: RunningMockNode;
  let wrong: Awaited<ReturnType<typeof startSyntheticNode>>;
  beforeAll(async () => {
    node = await startMockNode({ port: 0, world: { accounts: 2 } });
    wrong = await startSyntheticNode();
  });
  afterAll(async () => {
    await node.close();
    await wrong.close();
  });

  it('pass against the simulated network, each a row of its own', async () => {
    const report = await runConformance({ url: node.url, validator, methods: /^$/, coherence: true });
    expect(rows(report)).toEqual(Object.fromEntries(COHERENCE_ROWS.map((name) => [name, 'PASS'])));
  });

  it('fail against answers that are each valid but do not agree', async () => {
    const report = await runConformance({ url: wrong.url, validator, methods: /^$/, coherence: true });
    const failures = report.results.flatMap((r) =>
      r.checks.flatMap((c) => c.violations.map((v) => `${r.method}: ${v.message}`)),
    );
    expect(rows(report), failures.join('\n')).toEqual(Object.fromEntries(COHERENCE_ROWS.map((name) => [name, 'FAIL'])));
  });
});
