/**
 * Names a caller chooses that are also names of Object.prototype (`__proto__`, `constructor`, `toString`,
 * `hasOwnProperty`) as methods, params keys, chain and route aliases and keystore users.
 * They are ordinary names to the node: none may reach the mock's prototypes, answer as if present, or be lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

const PASSWORD = 'Adv7-Correct-Horse-Battery';
let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, nodeVersion: 'all', adminEnabled: true });
});
afterAll(() => node?.close());

interface Answer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}
const raw = async (path: string, body: string) =>
  JSON.parse((await send(`${node.url}${path}`, { body })).text) as Answer;
const call = (path: string, method: string, params: unknown) =>
  raw(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe('prototype names', () => {
  it('as methods are unknown methods on every endpoint, in the codec’s words', async () => {
    for (const name of NAMES) {
      expect((await call('/ext/bc/P', `platform.${name}`, {})).error?.message).toMatch(/^rpc: can't find method/);
      expect((await call('/ext/dev', `dev.${name}`, {})).error?.message).toMatch(/^rpc: can't find method/);
      expect((await call('/ext/bc/C/rpc', `eth_${name}`, [])).error?.code).toBe(-32601);
      expect((await call('/ext/bc/C/avax', `avax.${name}`, {})).error?.message).toMatch(/^rpc: can't find method/);
    }
    expect((await call('/ext/bc/P', '__proto__', {})).error?.message).toBe(
      'rpc: service/method request ill-formed: "__proto__"',
    );
  });

  it('as params keys neither fill a param nor reach Object.prototype', async () => {
    const sent = [
      '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"__proto__":{"alias":"X"}}}',
      '{"jsonrpc":"2.0","id":1,"method":"info.isBootstrapped","params":{"__proto__":{"chain":"X"}}}',
      '{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":{"constructor":{"prototype":{"alias":"X"}}}}',
      '{"jsonrpc":"2.0","id":1,"method":"platform.getBalance","params":{"__proto__":{"polluted":"yes"},"addresses":[]}}',
      '{"jsonrpc":"2.0","__proto__":{"method":"platform.getHeight"},"id":1}',
    ];
    const answers = [];
    for (const body of sent) answers.push(await raw(body.includes('info.') ? '/ext/info' : '/ext/bc/P', body));
    expect(answers[0]!.error?.message).toBe('there is no ID with alias: ');
    expect(answers[1]!.error?.message).toBe("argument 'chain' not given");
    expect(answers[2]!.error?.message).toBe('there is no ID with alias: ');
    expect(answers[3]!.result).toHaveProperty('balance');
    expect(answers[4]!.error).toBeDefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).alias).toBeUndefined();
    expect(({} as Record<string, unknown>).method).toBeUndefined();
  });

  it('as chain aliases are looked up as any other alias', async () => {
    for (const name of NAMES) {
      expect((await call('/ext/info', 'info.getBlockchainID', { alias: name })).error?.message).toBe(
        `there is no ID with alias: ${name}`,
      );
      expect((await call('/ext/info', 'info.isBootstrapped', { chain: name })).error?.message).toBe(
        `there is no chain with alias/ID '${name}'`,
      );
    }
    const pChain = (await call('/ext/info', 'info.getBlockchainID', { alias: 'P' })).result!.blockchainID;
    expect((await call('/ext/admin', 'admin.aliasChain', { chain: 'P', alias: '__proto__' })).result).toEqual({});
    expect((await call('/ext/info', 'info.getBlockchainID', { alias: '__proto__' })).result).toEqual({
      blockchainID: pChain,
    });
    // The alias is a route too: /ext/bc/__proto__ answers as the P-Chain.
    expect((await call('/ext/bc/__proto__', 'platform.getHeight', {})).result).toHaveProperty('height');
    expect((await call('/ext/admin', 'admin.getChainAliases', { chain: pChain as string })).result!.aliases).toContain(
      '__proto__',
    );
    // Still unknown: another prototype name, and the prototype's own names as chains.
    expect((await call('/ext/info', 'info.getBlockchainID', { alias: 'constructor' })).error).toBeDefined();
  });

  it('as keystore users go through the whole life of a user', async () => {
    for (const username of ['__proto__', 'constructor']) {
      expect((await call('/ext/keystore', 'keystore.createUser', { username, password: PASSWORD })).result).toEqual({});
      expect(
        (await call('/ext/keystore', 'keystore.createUser', { username, password: PASSWORD })).error?.message,
      ).toBe(`user already exists: ${username}`);
    }
    expect((await call('/ext/keystore', 'keystore.listUsers', {})).result!.users).toEqual(
      expect.arrayContaining(['__proto__', 'constructor']),
    );
    const exported = await call('/ext/keystore', 'keystore.exportUser', { username: '__proto__', password: PASSWORD });
    expect(exported.result!.user).toMatch(/^0x/);
    expect(
      (await call('/ext/keystore', 'keystore.deleteUser', { username: '__proto__', password: PASSWORD })).result,
    ).toEqual({});
    expect(
      (
        await call('/ext/keystore', 'keystore.importUser', {
          username: 'toString',
          password: PASSWORD,
          user: exported.result!.user,
        })
      ).result,
    ).toEqual({});
    const users = (await call('/ext/keystore', 'keystore.listUsers', {})).result!.users as string[];
    expect(users).toContain('toString');
    expect(users).not.toContain('__proto__');
    expect(
      (await call('/ext/keystore', 'keystore.exportUser', { username: 'hasOwnProperty', password: PASSWORD })).error,
    ).toBeDefined();
  });
});
