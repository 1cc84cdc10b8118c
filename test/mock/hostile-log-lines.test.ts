/**
 * The mock's log line per call. A refused call must be logged as refused, and no
 * password, exported user or other secret a caller sends may reach a log line or an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

const PASSWORD = 'Sup3r-Secret-Passw0rd!xyz';
const lines: string[] = [];
let node: RunningMockNode;
let port: number;
beforeAll(async () => {
  node = await startMockNode({ port: 0, nodeVersion: 'all', log: (line) => lines.push(line) });
  port = Number(new URL(node.url).port);
});
afterAll(() => node.close());

const call = async (path: string, method: string, params: unknown) =>
  JSON.parse((await send(port, { path, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).text) as {
    result?: Record<string, string>;
    error?: { message: string };
  };

describe('the log line of a call the C-Chain atomic API refuses', () => {
  // The handler answers a promise (it loads the atomic state first): its line waits for it to settle.
  it('is logged as an error, not as ok', async () => {
    const answer = await call('/ext/bc/C/avax', 'avax.getUTXOs', {
      addresses: ['C-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u'],
      sourceChain: 'Q',
    });
    expect(answer.error?.message).toMatch(/^problem parsing source chainID "Q"/);
    const line = lines.filter((l) => l.startsWith('avax.getUTXOs')).at(-1);
    expect(line).toMatch(/^avax\.getUTXOs error: problem parsing source chainID/);
  });
});

describe('secrets a caller sends to the keystore', () => {
  it('reach neither an answer nor a log line, whichever way the call is refused', async () => {
    const before = lines.length;
    const messages: string[] = [];
    const keep = (answer: { error?: { message: string } }) => messages.push(answer.error?.message ?? '');
    keep(await call('/ext/keystore', 'keystore.createUser', { username: 'adv7', password: PASSWORD }));
    keep(
      await call('/ext/keystore', 'keystore.createUser', {
        username: 'adv7b',
        password: `${PASSWORD}${'x'.repeat(2000)}`,
      }),
    );
    keep(await call('/ext/keystore', 'keystore.createUser', { username: PASSWORD, password: 'weak' }));
    keep(await call('/ext/keystore', 'keystore.exportUser', { username: 'adv7', password: `wrong${PASSWORD}` }));
    keep(
      await call('/ext/keystore', 'keystore.exportUser', { username: 'adv7', password: PASSWORD, encoding: PASSWORD }),
    );
    const exported = await call('/ext/keystore', 'keystore.exportUser', { username: 'adv7', password: PASSWORD });
    const user = exported.result!.user!;
    keep(await call('/ext/keystore', 'keystore.importUser', { username: 'adv7', password: PASSWORD, user }));
    keep(await call('/ext/keystore', 'keystore.importUser', { username: 'x7', password: `no${PASSWORD}`, user }));
    keep(
      await call('/ext/keystore', 'keystore.importUser', {
        username: 'y7',
        password: PASSWORD,
        user: `${user.slice(0, -4)}abcd`,
      }),
    );
    keep(
      await call('/ext/keystore', 'keystore.importUser', {
        username: 'z7',
        password: PASSWORD,
        user: `0xzz${user.slice(4)}`,
      }),
    );
    keep(await call('/ext/keystore', 'keystore.deleteUser', { username: 'adv7', password: { PASSWORD } }));
    // Bodies the decoder refuses, the secret next to where it stops.
    for (const body of [
      `{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"f","password":"${PASSWORD}"x}}`,
      `{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"f","password":"${PASSWORD}\\q"}}`,
      `{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"f","password":${PASSWORD}}}`,
    ])
      keep(JSON.parse((await send(port, { path: '/ext/keystore', body })).text));
    expect(messages.filter((m) => m !== '').length).toBeGreaterThanOrEqual(10);
    const logged = lines.slice(before);
    expect(logged.length).toBeGreaterThanOrEqual(13);
    for (const text of [...messages, ...logged]) {
      expect(text).not.toContain(PASSWORD.slice(0, 12));
      expect(text).not.toContain(user.slice(2, 40));
    }
  });
});
