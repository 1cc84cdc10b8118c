/**
 * Hostile requests to the mock node (issue 14), and so to the generated server under it, over raw HTTP: a million invalid
 * items are refused while other connections are served, invalid UTF-8 is repaired as Go repairs it, the password rule
 * scores only what the node scores, and exportUser refuses an unknown user in the words it uses for a wrong password.
 * How long each takes against its benign twin is a figure of `npm run bench -- hostile`, not a test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bech32Encode } from '../../generators/formats.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { decodeUtf8 } from '../../runtime/server/text.ts';
import { rpc, send } from '../support/rpc.ts';
import { INVALID_ARGUMENT } from '../../generated/server/dist/index.js';

// The mock's network is a local one (hrp "local"), as a node started with no --network-id.
const ADDRESS = `P-${bech32Encode('local', new Uint8Array(20).fill(7))}`;

let node: RunningMockNode;
let port: number;
beforeAll(async () => {
  // Every release at once: the Keystore checks below need a release that still served it (before v1.12.2).
  node = await startMockNode({ port: 0, maxBodyBytes: 64 * 1024 * 1024, nodeVersion: 'all' });
  port = Number(new URL(node.url).port);
});
afterAll(() => node.close());

describe('hostile requests to the mock node', () => {
  it('refuses 1,000,000 invalid items and answers a valid request of the same size, serving others meanwhile', async () => {
    const invalid = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'platform.getBalance',
      params: { addresses: Array(1_000_000).fill('x') },
    });
    // The same million strings, in a key the node ignores: the same bytes to read, one valid address to check.
    const shape = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'platform.getBalance',
      params: { addresses: [ADDRESS], ignored: Array(1_000_000).fill('x') },
    });
    const valid = `${shape.slice(0, -1)}${' '.repeat(Math.max(0, invalid.length - shape.length))}}`;
    const good = await send(port, { path: '/ext/bc/P', body: valid });
    const bad = send(port, { path: '/ext/bc/P', body: invalid });
    // Small calls on other connections while the large one is in flight: each must get its own answer.
    const others = Array.from({ length: 5 }, () => send(port, { path: '/ext/bc/P', body: rpc('platform.getHeight') }));
    expect(JSON.parse(good.text)).toHaveProperty('result');
    // api.JSONAddresses holds strings: the handler parses them (avax.ParseServiceAddresses), the first one refused.
    expect(JSON.parse((await bad).text).error.message).toBe(
      'couldn\'t parse address "x": no separator found in address',
    );
    for (const other of await Promise.all(others)) expect(JSON.parse(other.text)).toHaveProperty('result.height');
  }, 120_000);

  it('repairs invalid UTF-8 as Go does, 15 MB of it included', async () => {
    expect(
      decodeUtf8(Uint8Array.from([0x61, 0xe2, 0x82, 0x41, 0xff, 0xc3, 0xa9, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98, 0x80])),
    ).toBe('a\ufffd\ufffdA\ufffdé\ufffd\ufffd\ufffd😀');
    expect(decodeUtf8(new Uint8Array(15 * 1024 * 1024).fill(0xff))).toBe('\ufffd'.repeat(15 * 1024 * 1024));
    // Through the server: 15 MB of 0xFF inside a param is read as U+FFFD, refused like any bad address, which the
    // node's %q quotes back (U+FFFD is printable).
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"platform.getBalance","params":{"addresses":["'),
      Buffer.alloc(15 * 1024 * 1024, 0xff),
      Buffer.from('"]}}'),
    ]);
    const answer = await send(port, { path: '/ext/bc/P', body });
    expect(JSON.parse(answer.text).error.message).toBe(
      `couldn't parse address "${'\ufffd'.repeat(15 * 1024 * 1024)}": no separator found in address`,
    );
  }, 60_000);

  it('refuses uint64 strings above 2^64-1 as the node does, and takes 2^64-1', async () => {
    const height = async (value: string) =>
      JSON.parse(
        (await send(port, { path: '/ext/bc/P', body: rpc('platform.getBlockByHeight', { height: value }) })).text,
      );
    for (const value of [
      '18446744073709551616',
      '18446744073709552615',
      '99999999999999999999',
      '100000000000000000000',
    ])
      expect((await height(value)).error.message).toBe(INVALID_ARGUMENT);
    expect((await height('18446744073709551615')).error?.message).not.toBe(INVALID_ARGUMENT);
  });

  it('refuses the bare uint64 numbers Go refuses (exponent, fraction, -0, over 2^64-1), takes the rest', async () => {
    // Raw bodies: JSON.stringify cannot write 1e2, 1.0 or -0.
    const height = async (literal: string, key = 'height') => {
      const body = `{"jsonrpc":"2.0","id":1,"method":"platform.getBlockByHeight","params":{"${key}":${literal}}}`;
      return JSON.parse((await send(port, { path: '/ext/bc/P', body })).text);
    };
    for (const literal of [
      '1e2',
      '1E2',
      '1.0',
      '0.5',
      '-0',
      '-1',
      '18446744073709551616',
      '18446744073709552616',
      '1e400',
    ]) {
      expect((await height(literal)).error?.message, literal).toBe(INVALID_ARGUMENT);
      expect((await height(literal, 'HEIGHT')).error?.message, literal).toBe(INVALID_ARGUMENT);
    }
    for (const literal of ['0', '1', '9007199254740993', '18446744073709551615'])
      expect((await height(literal)).error?.message, literal).not.toBe(INVALID_ARGUMENT);
    // Only params are read this way: an id of 1e2 is echoed as written, as json2's RawMessage does.
    const id = await send(port, {
      path: '/ext/bc/P',
      body: '{"jsonrpc":"2.0","id":1e2,"method":"platform.getHeight","params":{"ignored":1e2}}',
    });
    expect(id.text).toMatch(/"id":1e2}\n$/);
    expect(JSON.parse(id.text).result).toBeDefined();
  });

  it('refuses uint32 params above 2^32-1 as strings or numbers, and fractions', async () => {
    const genesis = async (networkID: string) => {
      const body =
        `{"jsonrpc":"2.0","id":1,"method":"avm.buildGenesis","params":{"networkID":${networkID},` +
        `"genesisData":{},"encoding":"hex"}}`;
      return JSON.parse((await send(port, { path: '/ext/vm/avm', body })).text);
    };
    for (const value of ['"4294967296"', '"9999999999"', '4294967296', '1.0', '1e2', '-0'])
      expect((await genesis(value)).error?.message, value).toBe(INVALID_ARGUMENT);
    for (const value of ['"4294967295"', '4294967295', '"12345"'])
      expect((await genesis(value)).error?.message, value).not.toBe(INVALID_ARGUMENT);
  });

  it('scores only the first 50 characters of a password, as the node does', async () => {
    const call = (username: string, password: string) =>
      send(port, { path: '/ext/keystore', body: rpc('keystore.createUser', { username, password }) });
    const weakStart = await call('weak-start', `${'a'.repeat(50)}Tr0ub4dor&3-Correct-Horse-Battery-Staple`);
    expect(JSON.parse(weakStart.text).error.message).toBe('password is too weak');
    const strongStart = await call('strong-start', `Correct-Horse-Battery-Staple-9${'a'.repeat(994)}`);
    expect(JSON.parse(strongStart.text)).toHaveProperty('result');
  });

  it('refuses exportUser for an unknown user in the words it uses for a wrong password', async () => {
    await send(port, {
      path: '/ext/keystore',
      body: rpc('keystore.createUser', { username: 'known', password: 'Correct-Horse-Battery-Staple-9' }),
    });
    for (const username of ['nobody', 'known']) {
      const answer = await send(port, {
        path: '/ext/keystore',
        body: rpc('keystore.exportUser', { username, password: 'Wrong-Horse-Battery-Staple-9' }),
      });
      expect(JSON.parse(answer.text).error.message).toBe(`incorrect password: user "${username}"`);
    }
  });
});
