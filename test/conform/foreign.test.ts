/**
 * Conform and the proxy with a foreign OpenRPC document (`--spec`): a server generated from the OpenRPC project's
 * petstore, with the example handler set, on 127.0.0.1. Judged as plain JSON-RPC 2.0: no node release, no live
 * params, no coherence rows; -32602 refuses invalid params, -32601 means a method is missing, batches are calls.
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedMethodSpecs } from '../../conform/generated.ts';
import { type ProxyViolation, startProxy } from '../../conform/proxy.ts';
import { runConformance } from '../../conform/runner.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { runCli, startCli } from '../support/cli.ts';
import { send } from '../support/rpc.ts';
import { type ForeignServer, startForeignServer } from './foreign-server.ts';

const PETSTORE = 'test/fixtures/corpus/openrpc-petstore';
let validator: SpecValidator;
let server: ForeignServer;
beforeAll(async () => {
  const model = loadSpecModel(PETSTORE);
  validator = new SpecValidator(model, undefined, await generatedMethodSpecs(model));
  server = await startForeignServer(PETSTORE);
}, 120_000);
afterAll(() => server?.close());

const post = async (url: string, body: unknown): Promise<unknown> =>
  JSON.parse((await send(url, { body: JSON.stringify(body) })).text);

describe('conform --spec <foreign document>', () => {
  it('passes a server generated from the document, judged as JSON-RPC 2.0', async () => {
    const report = await runConformance({ url: server.url, validator, includeWrites: true });
    expect(report.nodeVersion).toBeUndefined();
    expect(report.results.map((r) => [r.method, r.status])).toEqual([
      ['list_pets', 'PASS'],
      ['create_pet', 'PASS'],
      ['get_pet', 'PASS'],
    ]);
    const createPet = report.results.find((r) => r.method === 'create_pet')!;
    // The example, a param of the wrong type and each required param left out, each refused with -32602.
    expect(createPet.checks.map((c) => c.kind)).toEqual(
      expect.arrayContaining(['example', 'wrong-type', 'missing-required']),
    );
    for (const check of createPet.checks.filter((c) => c.kind !== 'example')) expect(check.error?.code).toBe(-32602);
  });

  it('calls nothing the document does not mark side-effect free unless --include-writes', async () => {
    const report = await runConformance({ url: server.url, validator });
    expect(report.totals).toEqual({ PASS: 0, FAIL: 0, SKIP: 3 });
    expect(report.results[0]!.reason).toMatch(/x-side-effects: none/);
  });

  it('fails a server whose result breaks the schema, or that does not serve a method', async () => {
    const wrong = await startForeignServer(PETSTORE, {
      handlers: { listPets: () => [{ id: 'seven', name: 'fluffy' }] },
      methods: ['list_pets', 'create_pet'],
    });
    try {
      const report = await runConformance({ url: wrong.url, validator, includeWrites: true });
      const byMethod = Object.fromEntries(report.results.map((r) => [r.method, r]));
      expect(byMethod.list_pets!.status).toBe('FAIL');
      expect(byMethod.list_pets!.checks[0]!.violations).toContainEqual(
        expect.objectContaining({ pointer: '/result/0/id', rule: 'type' }),
      );
      expect(byMethod.create_pet!.status).toBe('PASS');
      expect(byMethod.get_pet!.status).toBe('FAIL');
      expect(byMethod.get_pet!.checks[0]!.violations[0]!.message).toMatch(/the spec has get_pet, but the server/);
    } finally {
      await wrong.close();
    }
  });

  it('the CLI exits 0 on a conforming server', { timeout: 120_000 }, async () => {
    const args = ['--spec', PETSTORE, '--url', server.url, '--include-writes'];
    const { code, stdout: out } = await runCli('conform/cli.ts', args);
    expect(out).toContain('plain JSON-RPC 2.0');
    expect(out).toContain('3 PASS, 0 FAIL, 0 SKIP');
    expect(code).toBe(0);
  });
});

describe('proxy --spec <foreign document>', () => {
  it('forwards unchanged and logs violations of single calls and of each call of a batch', async () => {
    const violations: ProxyViolation[] = [];
    const wrong = await startForeignServer(PETSTORE, { handlers: { getPet: () => ({ id: 7 }) } });
    const proxy = await startProxy({ upstream: wrong.url, validator, onViolation: (v) => violations.push(v) });
    try {
      const direct = await post(wrong.url, { jsonrpc: '2.0', id: 1, method: 'list_pets', params: { limit: 1 } });
      expect(await post(proxy.url, { jsonrpc: '2.0', id: 1, method: 'list_pets', params: { limit: 1 } })).toEqual(
        direct,
      );
      await post(proxy.url, { jsonrpc: '2.0', id: 2, method: 'list_pets', params: { limit: 'x' } });
      // By position (paramStructure either), the second call of the batch answered without the required `name`.
      const batch = await post(proxy.url, [
        { jsonrpc: '2.0', id: 3, method: 'list_pets', params: [1] },
        { jsonrpc: '2.0', id: 4, method: 'get_pet', params: [7] },
        { jsonrpc: '2.0', method: 'create_pet', params: { newPetName: 'rex' } },
      ]);
      // Two answers (the notification gets none); OpenRPC's default paramStructure, either, takes an array.
      expect(batch).toHaveLength(2);
      expect((batch as Array<{ id: number; result?: unknown }>)[0]).toEqual(
        expect.objectContaining({ id: 3, result: expect.any(Array) }),
      );
      await proxy.settled();
      const seen = violations.map((v) => [v.seq, v.method, v.direction, v.pointer, v.rule]);
      expect(seen).toEqual([
        [2, 'list_pets', 'request', '/params/limit', 'type'],
        [3, 'get_pet', 'response', '/result', 'required'],
      ]);
    } finally {
      await proxy.close();
      await wrong.close();
    }
  });

  it("keeps an idle caller connection as the node would (120 s, not node:http's 5 s), and closes it after", {
    timeout: 30_000,
  }, async () => {
    // A caller still reading a large answer after 5 s found its next call reset: the proxy announces the node's 120 s.
    const proxy = await startProxy({ upstream: server.url, validator });
    const brief = await startProxy({ upstream: server.url, validator, idleTimeoutMs: 1000 });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'list_pets', params: { limit: 1 } });
    const call = (url: string) =>
      // Not `send`: the connection must stay with a keep-alive agent, and the test waits on its close.
      new Promise<{ keepAlive: string; closed: Promise<void> }>((done, fail) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          const closed = new Promise<void>((gone) => req.socket!.once('close', () => gone()));
          res.resume();
          res.on('end', () => done({ keepAlive: String(res.headers['keep-alive']), closed }));
        });
        req.on('error', fail);
        req.end(body);
      });
    try {
      expect((await call(proxy.url)).keepAlive).toBe('timeout=120');
      // The same setting, shortened, ends an idle connection from the proxy's side: an event, not a wait.
      const shortened = await call(brief.url);
      expect(shortened.keepAlive).toBe('timeout=1');
      await shortened.closed;
    } finally {
      await proxy.close();
      await brief.close();
    }
  });

  it('the CLI loads the document and logs a violation', { timeout: 120_000 }, async () => {
    const cli = startCli('conform/proxy-cli.ts', ['--spec', PETSTORE, '--upstream', server.url, '--port', '0']);
    const output = cli.stdout;
    try {
      const [, url] = await output.until(/listening on (http:\/\/\S+),/);
      await post(url!, { jsonrpc: '2.0', id: 9, method: 'get_pet', params: { petId: 'seven' } });
      expect((await output.until(/violation .*/))[0]).toMatch(/get_pet.*\/params\/petId/);
    } finally {
      await cli.stop('SIGINT');
    }
  });
});
