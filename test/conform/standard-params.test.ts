/**
 * Conform's judgement of a plain JSON-RPC 2.0 call's params is the generated server's: for each shape of `params`
 * (by name, by position, the wrong structure, too many), conform flags the call exactly when a server generated from
 * the same document refuses it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedMethodSpecs } from '../../conform/generated.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { send } from '../support/rpc.ts';
import { type ForeignServer, startForeignServer } from './foreign-server.ts';

// list_pets is by-name ({limit}), get_pet by-position ([petId], a string), create_pet by-name with no params.
const SPEC = 'test/fixtures/corpus/openrpc-params-by-name-petstore';
let validator: SpecValidator;
let server: ForeignServer;
beforeAll(async () => {
  const model = loadSpecModel(SPEC);
  validator = new SpecValidator(model, undefined, await generatedMethodSpecs(model));
  server = await startForeignServer(SPEC);
}, 120_000);
afterAll(() => server?.close());

async function refused(method: string, params: unknown): Promise<boolean> {
  const call = params === undefined ? { jsonrpc: '2.0', id: 1, method } : { jsonrpc: '2.0', id: 1, method, params };
  const answer = JSON.parse((await send(server.url, { body: JSON.stringify(call) })).text) as {
    error?: { code: number };
  };
  return answer.error !== undefined && [-32600, -32602].includes(answer.error.code);
}

const CASES: Array<[string, unknown]> = [
  ['list_pets', undefined],
  ['list_pets', { limit: 2 }],
  ['list_pets', { limit: 'two' }],
  ['list_pets', { Limit: 2 }],
  ['list_pets', []],
  ['list_pets', [2]],
  ['list_pets', null],
  ['list_pets', 'limit'],
  ['get_pet', ['7']],
  ['get_pet', [7]],
  ['get_pet', ['7', '8']],
  ['get_pet', []],
  ['get_pet', { petId: '7' }],
  ['get_pet', { petId: 7 }],
  ['get_pet', {}],
  ['get_pet', '7'],
  ['create_pet', {}],
  ['create_pet', []],
];

describe('jsonrpc2 params: conform agrees with the generated server', () => {
  it.each(CASES)('%s %j', async (method, params) => {
    const violations = validator.checkParams(method, params);
    expect(violations.length > 0, JSON.stringify(violations)).toBe(await refused(method, params));
  });

  it('points at the item sent by position', () => {
    expect(validator.checkParams('get_pet', [7]).map((v) => v.pointer)).toEqual(['/params/0']);
  });
});
