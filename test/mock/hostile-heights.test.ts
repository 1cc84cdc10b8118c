/**
 * Heights at the top of uint64: the node parses a height with strconv.ParseUint (avajson.Uint64, quoted or not) and
 * prints the one it refuses as it read it; no digit may be lost to a float on the way. The same for avm.getAddressTxs'
 * cursor (served until v1.13.1), which the answer carries on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { rpc, send } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
});
afterAll(() => node?.close());

const EWOQ_X = 'X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u';

const MAX = '18446744073709551615';
const INVALID_ARGUMENT =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";
const P = async (method: string, params: string) =>
  JSON.parse(
    (await send(`${node.url}/ext/bc/P`, { body: `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}` }))
      .text,
  ).error?.message as string;

describe('a height of 2^64 - 1', () => {
  it('is refused by getValidatorsAt and getAllValidatorsAt with every digit', async () => {
    const tip = JSON.parse((await send(`${node.url}/ext/bc/P`, { body: rpc('platform.getHeight', {}) })).text).result
      .height;
    expect(await P('platform.getValidatorsAt', `{"height":"${MAX}"}`)).toBe(
      // vms/platformvm/service.go:1925 (v1.14.2): `failed to get validator set at %d: %w`.
      `failed to get validator set at ${MAX}: failed to fetch validator set at unfinalized height with SubnetID = ` +
        `11111111111111111111111111111111LpoYY: current P-chain height (${tip}) < requested P-Chain height (${MAX})`,
    );
    expect(await P('platform.getAllValidatorsAt', `{"height":"${MAX}"}`)).toBe(
      `failed to get validator sets at ${MAX}: failed to fetch validator set at unfinalized height: ` +
        `current P-chain height (${tip}) < requested P-Chain height (${MAX})`,
    );
    expect(await P('platform.getValidatorsAt', '{"height":"9007199254740993"}')).toContain('(9007199254740993)');
  });

  // avajson.Uint64 reads a bare number as it reads a quoted one (strconv.ParseUint of its text): the 20 digits reach
  // the handler whole, though JSON.parse would round them to 18446744073709552000.
  it('is refused with every digit when it is sent as a JSON number', async () => {
    expect(await P('platform.getBlockByHeight', `{"height":${MAX},"encoding":"hex"}`)).toBe(
      `couldn't get block at height ${MAX}: not found`,
    );
    expect(await P('platform.getBlockByHeight', `{ "HEIGHT" : ${MAX} }`)).toBe(
      `couldn't get block at height ${MAX}: not found`,
    );
    // Just past 2^53, where a double starts to skip integers: 16 digits, which the native parse would round.
    expect(await P('platform.getBlockByHeight', '{"height":9007199254740993}')).toBe(
      "couldn't get block at height 9007199254740993: not found",
    );
    // By position, the args struct in a one-element array.
    expect(await P('platform.getBlockByHeight', `[{"height":${MAX}}]`)).toBe(
      `couldn't get block at height ${MAX}: not found`,
    );
    const tip = JSON.parse((await send(`${node.url}/ext/bc/P`, { body: rpc('platform.getHeight', {}) })).text).result
      .height;
    expect(await P('platform.getValidatorsAt', `{"height":${MAX}}`)).toContain(
      `current P-chain height (${tip}) < requested P-Chain height (${MAX})`,
    );
  });

  // strconv.ParseUint takes digits only: a sign, a fraction or an exponent fails to decode, however the double reads.
  it('is refused as an argument the node cannot decode when negative, fractional, in exponent form or past 2^64 - 1', async () => {
    for (const literal of [
      `-${MAX}`,
      '-9007199254740993',
      '-1',
      '18446744073709551616',
      '1.8446744073709552e19',
      '1844674407370955161.5',
      '9007199254740993e0',
      '1e2',
      '1E+2',
    ])
      expect(await P('platform.getBlockByHeight', `{"height":${literal}}`), literal).toBe(INVALID_ARGUMENT);
  });
});

describe('an amount of 2^64 - 1 inside the params', () => {
  // avm.buildGenesis (served at /ext/vm/avm up to v1.10.17) reads each holder's amount as avajson.Uint64 and writes
  // it into the genesis bytes.
  let old: RunningMockNode;
  beforeAll(async () => {
    old = await startMockNode({ port: 0, nodeVersion: 'v1.10.17', world: { network: 'local', accounts: 1 } });
  });
  afterAll(() => old?.close());
  const genesis = async (amount: string) => {
    const body =
      '{"jsonrpc":"2.0","id":1,"method":"avm.buildGenesis","params":{"networkID":12345,"genesisData":{"asset":' +
      `{"name":"Asset","symbol":"A","initialState":{"fixedCap":[{"amount":${amount},"address":"${EWOQ_X.slice(2)}"}]}}}}}`;
    return (await send(`${old.url}/ext/vm/avm`, { body })).text;
  };

  it('is encoded with every digit when sent as a JSON number, as when quoted', async () => {
    const quoted = await genesis(`"${MAX}"`);
    expect(JSON.parse(quoted).result.bytes).toMatch(/^0x/);
    expect(await genesis(MAX)).toBe(quoted);
    expect(await genesis('9007199254740993')).toBe(await genesis('"9007199254740993"'));
    expect(await genesis('9007199254740993')).not.toBe(await genesis('9007199254740992'));
  });

  it('in a batch is refused as the node refuses any batch', async () => {
    const batch = `[{"jsonrpc":"2.0","id":1,"method":"platform.getBlockByHeight","params":{"height":${MAX}}}]`;
    expect(JSON.parse((await send(`${node.url}/ext/bc/P`, { body: batch })).text).error.message).toBe(
      'json: cannot unmarshal array into Go value of type json2.serverRequest',
    );
  });
});

describe('a getAddressTxs cursor of 2^64 - 1', () => {
  it('comes back with every digit, past the end of the list', async () => {
    const old = await startMockNode({ port: 0, nodeVersion: 'v1.11.12', world: { network: 'local', accounts: 1 } });
    try {
      const body = rpc('avm.getAddressTxs', { address: EWOQ_X, assetID: 'AVAX', cursor: MAX, pageSize: 10 });
      expect(JSON.parse((await send(`${old.url}/ext/bc/X`, { body })).text).result).toEqual({
        txIDs: null,
        cursor: MAX,
      });
      const bare = body.replace(`"cursor":"${MAX}"`, `"cursor":${MAX}`);
      expect(bare).not.toBe(body);
      expect((await send(`${old.url}/ext/bc/X`, { body: bare })).text).toContain(`"cursor":"${MAX}"`);
    } finally {
      await old.close();
    }
  });
});
