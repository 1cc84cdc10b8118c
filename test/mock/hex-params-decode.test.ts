/**
 * A transaction or an exported user that is no hex, as AvalancheGo answers it. The node's argument types hold these as
 * plain Go strings (api.FormattedTx `Tx string`, api/common_args_responses.go:84; keystore ImportUserArgs
 * `User string`, api/keystore/service.go of v1.11.0), so its JSON decoder takes any string: the handler decodes it with
 * formatting.Decode (utils/formatting/encoding.go) and answers that error wrapped in its own words:
 *   avm/platform/avax issueTx: `problem decoding transaction: %w` (vms/avm/service.go:193,
 *   vms/platformvm/service.go:1417, graft/coreth/plugin/evm/atomic/vm/api.go:160);
 *   keystore.importUser: `couldn't decode 'user' to bytes: %w`.
 * The inner texts are Go's: `missing 0x prefix to hex encoding` (errMissingHexPrefix), encoding/hex's
 * InvalidByteError (`encoding/hex: invalid byte: U+007A 'z'`, `%#U`) and ErrLength (`encoding/hex: odd length hex
 * string`). Never the decoder's `couldn't unmarshal an argument`, which only a value of the wrong JSON type gets.
 * The keystore's secrets never reach the mock's log lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const GO_TEXTS: [tx: string, inner: string][] = [
  ['0x00zz', "encoding/hex: invalid byte: U+007A 'z'"],
  ['00', 'missing 0x prefix to hex encoding'],
  ['0x0', 'encoding/hex: odd length hex string'],
];

describe('issueTx of bytes that are no hex (v1.14.2)', () => {
  let node: RunningMockNode;
  beforeAll(async () => {
    node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  });
  afterAll(() => node?.close());

  for (const [path, method] of [
    ['/ext/bc/X', 'avm.issueTx'],
    ['/ext/bc/P', 'platform.issueTx'],
    ['/ext/bc/C/avax', 'avax.issueTx'],
  ] as const) {
    it(`${method} answers formatting.Decode's error, wrapped as the handler wraps it`, async () => {
      const answers = [];
      for (const [tx] of GO_TEXTS)
        answers.push((await callRpc(`${node.url}${path}`, method, { tx, encoding: 'hex' })).error?.message);
      expect(answers).toEqual(GO_TEXTS.map(([, inner]) => `problem decoding transaction: ${inner}`));
    });
  }
});

describe('keystore.importUser of a user that is no hex (v1.11.0)', () => {
  const PASSWORD = 'Hostile11-Secret!pass';
  const lines: string[] = [];
  let node: RunningMockNode;
  beforeAll(async () => {
    node = await startMockNode({
      port: 0,
      world: { network: 'local', accounts: 0 },
      nodeVersion: 'v1.11.0',
      log: (line) => lines.push(line),
    });
  });
  afterAll(() => node?.close());

  it("answers `couldn't decode 'user' to bytes: …`", async () => {
    const url = `${node.url}/ext/keystore`;
    const answers = [];
    for (const [user] of GO_TEXTS) {
      answers.push(
        (await callRpc(url, 'keystore.importUser', { username: 'eve', password: PASSWORD, user })).error?.message,
      );
    }
    expect(answers).toEqual(GO_TEXTS.map(([, inner]) => `couldn't decode 'user' to bytes: ${inner}`));
  });

  it('logs neither the password nor the exported user', async () => {
    const url = `${node.url}/ext/keystore`;
    // The user's password and exported bytes are secrets: no log line carries them.
    expect((await callRpc(url, 'keystore.createUser', { username: 'eve', password: PASSWORD })).error).toBeUndefined();
    const exported = await callRpc(url, 'keystore.exportUser', { username: 'eve', password: PASSWORD });
    const user = (exported.result as { user: string }).user;
    await callRpc(url, 'keystore.exportUser', { username: 'eve', password: `${PASSWORD}-wrong` });
    await callRpc(url, 'keystore.importUser', { username: 'eve2', password: `${PASSWORD}-wrong`, user });
    expect(lines.length).toBeGreaterThan(0);
    const leaked = lines.filter((line) => line.includes(PASSWORD) || line.includes(user.slice(2, 42)));
    expect(leaked).toEqual([]);
  });
});
