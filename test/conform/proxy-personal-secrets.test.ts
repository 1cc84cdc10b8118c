/**
 * Passwords and private keys passed by position. coreth v1.14.2 serves the `personal_*` namespace when a node enables
 * `internal-personal` (graft/coreth/plugin/evm/config/config.md:58; internal/ethapi/backend.go:143), whose methods
 * take secrets as positional params (internal/ethapi/api.go): `personal_importRawKey(privkey, password)` (:386),
 * `personal_unlockAccount(addr, password, duration)` (:402), `personal_newAccount(password)` (:360),
 * `personal_sendTransaction(args, passwd)` (:461). Whatever the upstream answers (the mock refuses them, -32601), a
 * recording proxy must not write these strings to its transcripts (conform/README.md "Secrets": secrets never reach
 * a transcript, and redaction fails closed) nor print them.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ValidatingProxy, startProxy } from '../../conform/proxy.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';

const PASSWORD = 'Hostile11-personal-pw';
const RAW_KEY = '4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d';
const ADDRESS = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

let mock: RunningMockNode;
let proxy: ValidatingProxy;
let dir: string;
const logged: string[] = [];
beforeAll(async () => {
  mock = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  dir = mkdtempSync(join(tmpdir(), 'hostile11-personal-'));
  proxy = await startProxy({
    upstream: mock.url,
    validator: new SpecValidator(loadSpecModel()),
    record: dir,
    onUnknownMethod: (method) => logged.push(method),
    onViolation: (violation) => logged.push(JSON.stringify(violation)),
    onInternalError: (message) => logged.push(message),
  });
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

describe('personal_* secrets through the recording proxy', () => {
  it('writes no password and no raw private key to a transcript or a log line', async () => {
    const calls: [string, unknown[]][] = [
      ['personal_importRawKey', [RAW_KEY, PASSWORD]],
      ['personal_unlockAccount', [ADDRESS, PASSWORD, 300]],
      ['personal_newAccount', [PASSWORD]],
      ['personal_sendTransaction', [{ from: ADDRESS, to: ADDRESS }, PASSWORD]],
    ];
    let id = 0;
    for (const [method, params] of calls) {
      const answer = await send(`${proxy.url}/ext/bc/C/rpc`, {
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      });
      expect(answer.status).toBe(200);
    }
    await proxy.settled();
    const files = readdirSync(dir);
    expect(files.length).toBe(calls.length);
    const leaking = files.filter((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      return text.includes(PASSWORD) || text.includes(RAW_KEY);
    });
    expect(leaking).toEqual([]);
    expect(logged.filter((line) => line.includes(PASSWORD) || line.includes(RAW_KEY))).toEqual([]);
  });
});
