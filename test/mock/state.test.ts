/** The mock node's stateful behaviours, each as a scenario over real HTTP. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { documentedErrorsOf, findDocumentedError } from '../../conform/errors.ts';
import { indexMethods } from '../../generators/model/build.ts';
import { bech32Encode, cb58Encode, hexDecode } from '../../generators/formats.ts';
import { INVALID_ARGUMENT } from '../../generated/server/dist/index.js';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { mockModel } from '../../mock/spec.ts';
import { P_CHAIN_ID, X_CHAIN_ID } from '../../mock/state.ts';
import { callRpc } from '../support/rpc.ts';

const model = indexMethods(mockModel());

let node: RunningMockNode;
let logs: string[];
const call = (path: string, method: string, params?: unknown) => callRpc(node.url + path, method, params);
const failure = (message: string) => ({ error: { code: -32000, message, data: null } });

beforeEach(async () => {
  logs = [];
  node = await startMockNode({ port: 0, nodeVersion: 'all', validateResults: true, log: (line) => logs.push(line) });
});
afterEach(() => node.close());

describe('keystore', () => {
  const K = '/ext/keystore';
  const password = 'Correct-Horse-Battery-Staple-41';

  it('creates, lists, exports, imports as another name and deletes users, with the node password rules', async () => {
    expect(await call(K, 'keystore.listUsers')).toEqual({ result: { users: [] } });
    expect(await call(K, 'keystore.createUser', { username: 'alice', password: 'password' })).toMatchObject(
      failure('password is too weak'),
    );
    expect(await call(K, 'keystore.createUser', { username: 'alice', password: '' })).toMatchObject(
      failure('empty password'),
    );
    expect(await call(K, 'keystore.createUser', { username: 'alice', password: 'x'.repeat(1025) })).toMatchObject(
      failure('password exceeds maximum length of 1024 chars'),
    );
    expect(await call(K, 'keystore.createUser', { username: '', password })).toMatchObject(failure('empty username'));
    expect(await call(K, 'keystore.createUser', { username: 'é'.repeat(513), password })).toMatchObject(
      failure('username exceeds maximum length of 1024 chars'),
    );
    expect(await call(K, 'keystore.createUser', { username: 'alice', password })).toEqual({ result: {} });
    expect(await call(K, 'keystore.createUser', { username: 'alice', password })).toMatchObject(
      failure('user already exists: alice'),
    );

    const exported = await call(K, 'keystore.exportUser', { username: 'alice', password });
    const user = exported.result!.user as string;
    expect(exported.result!.encoding).toBe('hex');
    expect(hexDecode(user)?.subarray(0, 2)).toEqual(new Uint8Array([0, 0]));
    expect(await call(K, 'keystore.exportUser', { username: 'alice', password: 'wrong-password-123' })).toMatchObject(
      failure('incorrect password: user "alice"'),
    );

    expect(
      await call(K, 'keystore.importUser', { username: 'bob', password: 'wrong-password-123', user }),
    ).toMatchObject(failure('incorrect password: user "bob"'));
    expect(
      await call(K, 'keystore.importUser', {
        username: 'bob',
        password,
        user: user.slice(0, -2) + (user.endsWith('00') ? '01' : '00'),
      }),
    ).toMatchObject(failure("couldn't decode 'user' to bytes: invalid input checksum"));
    expect(await call(K, 'keystore.importUser', { username: 'bob', password, user })).toEqual({ result: {} });
    expect(await call(K, 'keystore.importUser', { username: 'alice', password, user })).toMatchObject(
      failure('user already exists: alice'),
    );
    expect(await call(K, 'keystore.listUsers')).toEqual({ result: { users: ['alice', 'bob'] } });
    expect((await call(K, 'keystore.exportUser', { username: 'bob', password, encoding: 'hexnc' })).result).toEqual({
      user: user.slice(0, -8),
      encoding: 'hexnc',
    });

    expect(await call(K, 'keystore.deleteUser', { username: 'alice', password: 'wrong-password-123' })).toMatchObject(
      failure('incorrect password: user "alice"'),
    );
    expect(await call(K, 'keystore.deleteUser', { username: 'alice', password })).toEqual({ result: {} });
    expect(await call(K, 'keystore.deleteUser', { username: 'alice', password })).toMatchObject(
      failure("user doesn't exist: alice"),
    );
    expect(await call(K, 'keystore.listUsers')).toEqual({ result: { users: ['bob'] } });
  });

  it('logs one line per call: a result, a handler error, params refused before the handler, no handler', async () => {
    await call(K, 'keystore.listUsers');
    await call(K, 'keystore.createUser', { username: 'alice', password: 'password' });
    await call(K, 'keystore.createUser', { username: 'alice', password: 'x'.repeat(1025) });
    await call(K, 'keystore.createUser', { username: 'alice' });
    await call(K, 'keystore.createUser', { username: 5, password: 'not-logged-either-9' });
    await call(K, 'keystore.noSuchMethod');
    await call(K, 'keystore.no\nSuchMethod\u2028');
    await call(K, `keystore.${'x'.repeat(5000)}`);
    await call(K, 'keystore.exportUser', { username: 'mallory\nkeystore.listUsers ok', password: 'whatever-it-is-42' });
    expect(logs).toEqual([
      'keystore.listUsers ok',
      'keystore.createUser error: password is too weak',
      'keystore.createUser error: password exceeds maximum length of 1024 chars',
      'keystore.createUser error: empty password',
      `keystore.createUser error: ${INVALID_ARGUMENT}`,
      'keystore.noSuchMethod error: rpc: can\'t find method "keystore.NoSuchMethod"',
      'keystore.no\\u000aSuchMethod\\u2028 error: rpc: can\'t find method "keystore.No\\nSuchMethod\\u2028"',
      `keystore.${'x'.repeat(119)}… error: ` +
        `${`rpc: can't find method "keystore.X${'x'.repeat(4999)}"`.slice(0, 512)}…`,
      'keystore.exportUser error: incorrect password: user "mallory\\nkeystore.listUsers ok"',
    ]);
    expect(await call(K, 'keystore.listUsers')).toEqual({ result: { users: [] } });
  });

  it('never writes a password to the log or into an answer', async () => {
    const secret = 'Secret-Passphrase-Nobody-Guesses-77';
    const answers = [
      await call(K, 'keystore.createUser', { username: 'carol', password: secret }),
      await call(K, 'keystore.createUser', { username: 'carol', password: secret }),
      await call(K, 'keystore.exportUser', { username: 'carol', password: `${secret}x` }),
      await call(K, 'keystore.deleteUser', { username: 'nobody', password: secret }),
      await call(K, 'keystore.createUser', { username: 'dave', password: `${secret}${'y'.repeat(1100)}` }),
    ];
    expect(logs.length).toBeGreaterThan(0);
    for (const text of [...logs, ...answers.map((a) => JSON.stringify(a))]) expect(text).not.toContain(secret);
  });
});

describe('admin', () => {
  const A = '/ext/admin';

  it('aliases a chain, lists the alias, and serves the chain API under it', async () => {
    expect(await call(A, 'admin.aliasChain', { chain: 'X', alias: 'myX' })).toEqual({ result: {} });
    expect(await call(A, 'admin.getChainAliases', { chain: X_CHAIN_ID })).toEqual({
      result: { aliases: ['X', 'avm', X_CHAIN_ID, 'myX'] },
    });
    expect((await call('/ext/bc/myX', 'avm.getHeight')).result).toHaveProperty('height');
    expect(await call(A, 'admin.aliasChain', { chain: 'P', alias: 'myX' })).toMatchObject(
      failure('alias already mapped to an ID: myX'),
    );
    expect(await call(A, 'admin.aliasChain', { chain: 'nope', alias: 'other' })).toMatchObject(
      failure('there is no ID with alias: nope'),
    );
  });

  it('limits aliases to 512 bytes', async () => {
    expect(await call(A, 'admin.aliasChain', { chain: 'X', alias: 'a'.repeat(513) })).toMatchObject(
      failure('alias length is too long'),
    );
    expect(await call(A, 'admin.alias', { endpoint: 'bc/X', alias: 'a'.repeat(513) })).toMatchObject(
      failure('alias length is too long'),
    );
    expect(await call(A, 'admin.aliasChain', { chain: 'X', alias: 'a'.repeat(512) })).toEqual({ result: {} });
  });

  it('aliases an API route', async () => {
    expect(await call(A, 'admin.alias', { endpoint: 'bc/X', alias: 'myAlias' })).toEqual({ result: {} });
    expect((await call('/ext/myAlias', 'avm.getHeight')).result).toHaveProperty('height');
    expect((await call('/ext/myAlias/wallet', 'wallet.issueTx', { tx: 'x' })).error?.code).toBe(-32000);
    expect(await call(A, 'admin.alias', { endpoint: 'bc/P', alias: 'myAlias' })).toMatchObject(
      failure('route is either already aliased or already maps to a handle: /ext/myAlias'),
    );
  });

  it('sets logger levels and reads them back', async () => {
    expect(await call(A, 'admin.setLoggerLevel', { loggerName: 'X' })).toMatchObject(
      failure('need to specify either displayLevel or logLevel'),
    );
    expect(await call(A, 'admin.setLoggerLevel', { loggerName: 'X', logLevel: 'verbo' })).toEqual({
      result: { loggerLevels: { X: { logLevel: 'VERBO', displayLevel: 'INFO' } } },
    });
    expect(await call(A, 'admin.getLoggerLevel', { loggerName: 'X' })).toEqual({
      result: { loggerLevels: { X: { logLevel: 'VERBO', displayLevel: 'INFO' } } },
    });
    expect(await call(A, 'admin.setLoggerLevel', { displayLevel: 'warn' })).toMatchObject({
      result: { loggerLevels: { main: { displayLevel: 'WARN' }, P: { displayLevel: 'WARN' } } },
    });
    expect(await call(A, 'admin.getLoggerLevel', { loggerName: 'Z' })).toMatchObject(
      failure('logger with name "Z" not found'),
    );
    expect(await call(A, 'admin.setLoggerLevel', { loggerName: 'X', logLevel: 'LOUD' })).toMatchObject(
      failure(INVALID_ARGUMENT),
    );
  });

  it('runs one CPU profile at a time', async () => {
    expect(await call(A, 'admin.stopCPUProfiler')).toMatchObject(failure("cpu profiler doesn't exist"));
    expect(await call(A, 'admin.startCPUProfiler')).toEqual({ result: {} });
    expect(await call(A, 'admin.startCPUProfiler')).toMatchObject(failure('cpu profiler already running'));
    expect(await call(A, 'admin.stopCPUProfiler')).toEqual({ result: {} });
    expect(await call(A, 'admin.stopCPUProfiler')).toMatchObject(failure("cpu profiler doesn't exist"));
  });
});

describe('getUTXOs pagination', () => {
  /** A world whose one funded account holds 1,500 UTXOs on each chain: more than a page. */
  beforeEach(async () => {
    await node.close();
    node = await startMockNode({ port: 0, validateResults: true, world: { accounts: 1, utxosPerAccount: 1500 } });
  });
  async function busyAddress(chain: string): Promise<{ address: string; total: number }> {
    return {
      address: `${chain}-${bech32Encode('local', Buffer.from(node.world.accounts[0]!.address, 'hex'))}`,
      total: 1500,
    };
  }

  it.each([
    ['X', '/ext/bc/X', 'avm.getUTXOs'],
    ['P', '/ext/P', 'platform.getUTXOs'],
  ])('caps pages at 1024 and continues from endIndex on the %s-Chain', async (chain, path, method) => {
    const { address, total } = await busyAddress(chain);
    for (const limit of [0, 1025, 5000, undefined]) {
      expect(
        (await call(path, method, { addresses: [address], ...(limit === undefined ? {} : { limit }) })).result!
          .numFetched,
      ).toBe('1024');
    }
    const seen = new Set<string>();
    let startIndex: unknown;
    let pages = 0;
    for (;;) {
      const page = (
        await call(path, method, { addresses: [address], limit: 400, ...(startIndex ? { startIndex } : {}) })
      ).result!;
      const utxos = page.utxos as string[];
      for (const utxo of utxos) {
        expect(hexDecode(utxo)).toBeDefined();
        seen.add(utxo);
      }
      pages++;
      expect((page.endIndex as { address: string }).address).toBe(address);
      if (utxos.length < 400) break;
      startIndex = page.endIndex;
    }
    expect(seen.size).toBe(total);
    expect(pages).toBe(Math.floor(total / 400) + 1);
  });

  it('takes a raw cb58 short ID for the address it stands for', async () => {
    const owner = Buffer.from(node.world.accounts[0]!.address, 'hex');
    const bech32 = await call('/ext/P', 'platform.getUTXOs', { addresses: [`P-${bech32Encode('local', owner)}`] });
    expect(bech32.result!.utxos).not.toHaveLength(0);
    expect(await call('/ext/P', 'platform.getUTXOs', { addresses: [cb58Encode(owner)] })).toEqual(bech32);
  });

  it("refuses another chain's address with the documented mismatched-chain error", async () => {
    const documented = model
      .get('platform.getUTXOs')!
      .method.errors.filter((e) => e.message.startsWith("couldn't parse address") && e.message.includes('mismatched'));
    expect(documented).toHaveLength(1);
    const address = `X-${bech32Encode('local', new Uint8Array(20).fill(7))}`;
    const answer = await call('/ext/P', 'platform.getUTXOs', { addresses: [address] });
    expect(answer.error?.message).toBe(
      `couldn't parse address "${address}": mismatched chainIDs: expected "${P_CHAIN_ID}" but got "${X_CHAIN_ID}"`,
    );
    expect(
      findDocumentedError(
        documentedErrorsOf(model.get('platform.getUTXOs')!.method),
        answer.error!.code,
        answer.error!.message,
      ),
    ).toEqual(expect.objectContaining(documented[0]));
  });

  it('refuses an empty address list and too many addresses with the node messages', async () => {
    expect(await call('/ext/bc/X', 'avm.getUTXOs', { addresses: [] })).toMatchObject(failure('no addresses provided'));
    const many = Array.from(
      { length: 1025 },
      (_, i) =>
        `X-${bech32Encode(
          'local',
          new Uint8Array(20).fill(i % 256).map((b, j) => (j === 0 ? i >> 8 : b)),
        )}`,
    );
    expect(await call('/ext/bc/X', 'avm.getUTXOs', { addresses: many })).toMatchObject(
      failure('number of addresses given, 1025, exceeds maximum, 1024'),
    );
  });
});
