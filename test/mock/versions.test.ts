/**
 * The mock at a release: every `x-changes` entry of the spec exercised at the releases on either side of it (from the
 * spec, not a list per method), the real libraries' getValidatorsAt against v1.10.5, and `{}` answered as the node.
 */
import { pvm } from '@avalabs/avalanchejs';
import { Avalanche } from 'avalanche';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpecValidator } from '../../conform/validate.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { indexMethods } from '../../generators/model/build.ts';
import type { Json, MethodModel } from '../../generators/model/types.ts';
import { compareVersions, inRange, newestSpecVersion } from '../../generators/model/versions.ts';
import { resolveInMethod } from '../../generators/load/versions.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { INVALID_ARGUMENT } from '../../generated/server/dist/index.js';
import { callRpc } from '../support/rpc.ts';

const model = loadSpecModel();
const validator = new SpecValidator(model);
const methods = indexMethods(model);
const nodes = new Map<string, RunningMockNode>();

async function node(version: string): Promise<RunningMockNode> {
  let running = nodes.get(version);
  if (!running) nodes.set(version, (running = await startMockNode({ port: 0, nodeVersion: version })));
  return running;
}
afterAll(() => Promise.all([...nodes.values()].map((n) => n.close())));

async function call(version: string, name: string, params: Record<string, unknown>) {
  const { endpoint } = methods.get(name)!;
  return callRpc<Json>(`${(await node(version)).url}${endpoint.defaultPath}`, name, params);
}

/**
 * Every release the spec names: its ranges only change at these, so the one just below a change stands for all between.
 */
const releases = [
  ...new Set(
    JSON.stringify(model)
      .match(/"v\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?"/g)!
      .map((v) => JSON.parse(v) as string),
  ),
].sort(compareVersions);

/** The release the spec names just before `version` (for a change at a `.0` release, the last of the line before). */
function releaseBefore(version: string): string {
  const earlier = releases.filter((v) => compareVersions(v, version) < 0);
  expect(earlier.length, `${version} has no release before it in the spec`).toBeGreaterThan(0);
  return earlier.at(-1)!;
}

const changed = [...methods.values()].flatMap(({ method }) => method.changes.map((change) => ({ method, change })));

describe('every x-changes entry, at a release on each side of it', () => {
  it('the spec has changes to exercise, each pointing at what it changed', () => {
    expect(changed.length).toBeGreaterThanOrEqual(15);
    for (const { change } of changed) expect(change.pointers.length).toBeGreaterThan(0);
  });

  it.each(changed.map(({ method, change }) => [`${method.name} ${change.version}`, method, change] as const))(
    '%s',
    async (_label, method: MethodModel, change) => {
      const sides = [releaseBefore(change.version), change.version];
      const document = methods.get(method.name)!.endpoint.published;
      const raw = (document.methods as unknown[])[method.index];
      for (const version of sides) {
        const release = validator.atRelease(version);
        for (const example of method.examples) {
          const answer = await call(version, method.name, example.params);
          // Every answer is what that release could send: its fields, shapes and enum values, or a documented error.
          expect(
            release.checkResponse(method.name, { jsonrpc: '2.0', id: 1, ...answer }, 1),
            `${version} ${example.name}: ${JSON.stringify(answer).slice(0, 300)}`,
          ).toEqual([]);
        }
      }
      for (const pointer of change.pointers) {
        const target = resolveInMethod(document, raw, pointer) as Record<string, unknown>;
        if (pointer.startsWith('/params/') && /^\/params\/\d+$/.test(pointer)) {
          // A param the release did not read is ignored: the answer is the one without it.
          const param = method.params[Number(pointer.split('/')[2])]!;
          const example = method.examples.find((e) => param.name in e.params) ?? method.examples[0]!;
          const addresses = example.params.addresses as string[] | undefined;
          const value = example.params[param.name] ?? (param.name === 'address' ? addresses?.[0] : true);
          const without = Object.fromEntries(Object.entries(example.params).filter(([k]) => k !== param.name));
          const unknownAt = sides.find((v) => !inRange(param.versions, v))!;
          expect(await call(unknownAt, method.name, { ...without, [param.name]: value })).toEqual(
            await call(unknownAt, method.name, without),
          );
        } else if (pointer.includes('/params/')) {
          // An alternative of a param's schema: the release without it refuses the value with its decode error.
          const example = method.examples.find((e) =>
            Object.values(e.params).some((v) => JSON.stringify(v) === JSON.stringify(target.const)),
          )!;
          const lacking = sides.find((v) => !inRange(target['x-node-versions'] as MethodModel['versions'], v))!;
          const having = sides.find((v) => v !== lacking)!;
          expect((await call(lacking, method.name, example.params)).error?.message).toBe(INVALID_ARGUMENT);
          expect((await call(having, method.name, example.params)).error).toBeUndefined();
        } else if (pointer.includes('/x-enum-versions/')) {
          // An enum value: the release that had it accepts it in an answer, the other does not.
          const value = pointer.split('/').at(-1)!;
          const [older, newer] = sides as [string, string];
          const property = pointer.split('/').at(-3)!;
          const wrong = { jsonrpc: '2.0', id: 1, result: { [property]: value } };
          expect(validator.atRelease(older).checkResponse(method.name, wrong, 1)).toEqual([]);
          expect(validator.atRelease(newer).checkResponse(method.name, wrong, 1)).not.toEqual([]);
        } else if (pointer.startsWith('/x-result-history/')) {
          // Another shape: the release inside the entry's range answers with it, the other with today's.
          const index = Number(pointer.split('/')[2]);
          const entry = method.resultHistory[index]!;
          for (const version of sides) {
            const answer = await call(version, method.name, method.examples[0]!.params);
            const inside = inRange(entry.versions, version);
            const other = new SpecValidator(model).checkResponse(method.name, { jsonrpc: '2.0', id: 1, ...answer }, 1);
            expect(other.length === 0, `${version}: ${JSON.stringify(answer).slice(0, 200)}`).toBe(!inside);
          }
        } else {
          // A field or an alternative of the result: the release outside its range never sends it (checked above by the
          // release's closed schema); where a field starts at this release, the examples show it there.
          const range = (target['x-node-versions'] ?? {}) as MethodModel['versions'];
          const name = pointer.split('/').at(-1)!;
          if (range.since === change.version && /^[a-zA-Z]+$/.test(name) && pointer.includes('/properties/')) {
            const answers = await Promise.all(method.examples.map((e) => call(change.version, method.name, e.params)));
            const older = await Promise.all(
              method.examples.map((e) => call(releaseBefore(change.version), method.name, e.params)),
            );
            const holds = (value: unknown): boolean =>
              value !== null &&
              typeof value === 'object' &&
              (Object.hasOwn(value, name) || Object.values(value).some(holds));
            if (answers.some((a) => holds(a.result)))
              expect(older.some((a) => holds(a.result) && !holdsElsewhere(method, name))).toBe(false);
          }
        }
      }
    },
  );
});

/**
 * Whether a field name also appears in parts of the result that the change does not touch (then absence says nothing).
 */
function holdsElsewhere(method: MethodModel, name: string): boolean {
  return name === 'id' && method.name === 'platform.getBlock';
}

describe('the real libraries against v1.10.5', () => {
  let mock: RunningMockNode;
  beforeAll(async () => {
    mock = await node('v1.10.5');
  });

  it('avalanchejs 5.2.0 and avalanche.js v3 read getValidatorsAt as the node then sent it', async () => {
    const fromV5 = await new pvm.PVMApi(mock.url).getValidatorsAt({ height: 1 } as never);
    const url = new URL(mock.url);
    const fromV3 = (await new Avalanche(url.hostname, Number(url.port), 'http').PChain().getValidatorsAt(1)) as {
      validators: Record<string, number>;
    };
    for (const answer of [fromV5, fromV3] as Array<{ validators: Record<string, unknown> }>) {
      expect(Object.keys(answer.validators).length).toBeGreaterThan(0);
      for (const [nodeID, weight] of Object.entries(answer.validators)) {
        expect(nodeID).toMatch(/^NodeID-/);
        expect(typeof weight).toBe('number');
      }
    }
    expect(fromV3).toEqual(fromV5);
  });

  it('today the libraries get the bare map they do not expect', async () => {
    const newest = await node(newestSpecVersion(model));
    const answer = (await new pvm.PVMApi(newest.url).getValidatorsAt({ height: 1 } as never)) as unknown as Record<
      string,
      unknown
    >;
    expect(answer.validators).toBeUndefined();
  });
});

describe('required params in the node profile', () => {
  it('answers getTxStatus({}) as the node does: the zero ID is Unknown', async () => {
    const answer = await call(newestSpecVersion(model), 'platform.getTxStatus', {});
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ status: 'Unknown' });
  });
});
