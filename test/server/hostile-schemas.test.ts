/**
 * Schemas a hostile or careless spec may hold, through a server package generated from it and served over HTTP:
 * a pattern with nested quantifiers answers promptly (patterns are matched by RE2, in linear time), and properties
 * named `__proto__` and `constructor` are the object's own (a valid `{"__proto__": "x"}` is accepted, an object
 * missing a required one is refused). A pattern RE2 cannot match is refused when the spec loads, naming where it is.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../generators/pipeline.ts';
import { listen, send } from '../support/rpc.ts';
import { importServerPackage } from '../support/server-package.ts';

const temp = mkdtempSync(join(tmpdir(), 'hostile-schemas-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Raw text: a JavaScript object literal cannot hold a `__proto__` key, JSON can. */
const spec = (pattern: string) => `{
  "openrpc": "1.3.2",
  "info": { "title": "Hostile", "version": "1.0.0" },
  "servers": [{ "name": "hostile", "url": "http://127.0.0.1:9650/rpc" }],
  "methods": [
    {
      "name": "hostile.checkText",
      "params": [{ "name": "text", "required": true, "schema": { "type": "string", "pattern": ${JSON.stringify(pattern)} } }],
      "result": { "name": "ok", "schema": { "type": "boolean" } }
    },
    {
      "name": "hostile.checkObject",
      "params": [{ "name": "value", "required": true, "schema": { "$ref": "#/components/schemas/Prototypical" } }],
      "result": { "name": "ok", "schema": { "type": "boolean" } }
    }
  ],
  "components": {
    "schemas": {
      "Prototypical": {
        "type": "object",
        "required": ["__proto__", "constructor"],
        "properties": { "__proto__": { "type": "string" }, "constructor": { "type": "string" } }
      }
    }
  }
}`;

function specFolder(name: string, pattern: string): string {
  const dir = join(temp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'hostile.json'), spec(pattern));
  return dir;
}

interface Answer {
  result?: unknown;
  error?: { code: number; message: string; data?: Array<{ path: string; message: string }> };
}

describe('a server generated from hostile schemas', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  const seen: unknown[] = [];
  const call = async (method: string, params: string, path = '/rpc') =>
    JSON.parse(
      (
        await send(server.port, {
          path,
          body: `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`,
        })
      ).text,
    ) as Answer;

  beforeAll(async () => {
    const pkg = await importServerPackage<{
      createHostileEndpoint: (handlers: object, options?: object) => object;
      createRouter: (routes: object) => { node: unknown };
    }>(specFolder('spec', '^(a+)+$'), join(temp, 'package'), 'hostile-schemas.test');
    const handlers = {
      checkText: () => true,
      checkObject: (params: { value: unknown }) => {
        seen.push(params.value);
        return true;
      },
    };
    const routes = {
      '/rpc': pkg.createHostileEndpoint(handlers),
      '/node': pkg.createHostileEndpoint(handlers, { profile: 'node' }),
    };
    server = await listen(pkg.createRouter(routes).node as never);
  }, 120_000);
  afterAll(() => server?.close());

  it('refuses a 10,000-character value that fails ^(a+)+$ (exponential for a backtracking engine)', async () => {
    const refused = await call('hostile.checkText', JSON.stringify({ text: `${'a'.repeat(10_000)}!` }));
    expect(refused.error).toMatchObject({
      code: -32602,
      data: [{ path: '/text', message: '/text must match pattern "^(a+)+$"' }],
    });
    expect((await call('hostile.checkText', JSON.stringify({ text: 'a'.repeat(10_000) }))).result).toBe(true);
  });

  it('accepts {"__proto__": "x"} as an object with that property, and hands it on as one', async () => {
    const answer = await call('hostile.checkObject', '{"value":{"__proto__":"x","constructor":"y"}}');
    expect(answer).toMatchObject({ result: true });
    const value = seen.at(-1) as Record<string, unknown>;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe('x');
  });

  it('keeps __proto__ an own property through the node profile’s decoding too', async () => {
    const answer = await call('hostile.checkObject', '{"value":{"__proto__":"x","constructor":"y"}}', '/node');
    expect(answer).toMatchObject({ result: true });
    const value = seen.at(-1) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    const wrongType = await call('hostile.checkObject', '{"value":{"__proto__":5,"constructor":"y"}}', '/node');
    expect(wrongType.error?.code).toBe(-32000);
  });

  it('refuses objects missing a required __proto__ or constructor, which every object inherits', async () => {
    const missingProto = await call('hostile.checkObject', '{"value":{"constructor":"y"}}');
    expect(missingProto.error?.data).toEqual([{ path: '/value', message: 'missing required param "__proto__"' }]);
    const missingConstructor = await call('hostile.checkObject', '{"value":{"__proto__":"x"}}');
    expect(missingConstructor.error?.data).toEqual([
      { path: '/value', message: 'missing required param "constructor"' },
    ]);
    const wrongType = await call('hostile.checkObject', '{"value":{"__proto__":5,"constructor":"y"}}');
    expect(wrongType.error?.data).toEqual([{ path: '/value/__proto__', message: '/value/__proto__ must be string' }]);
  });
});

describe('a pattern RE2 cannot match', () => {
  it('is refused when the spec loads, with its file and pointer', () => {
    expect(() => loadModel(specFolder('lookahead', '^(?=a)a+$'))).toThrow(
      /hostile\.json#\/methods\/0\/params\/0\/schema: .*pattern "\^\(\?=a\)a\+\$" is not supported: patterns are matched by RE2/,
    );
  });
});
