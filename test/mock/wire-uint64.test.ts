/**
 * Go writes a uint64 as its exact decimal digits at any depth of a reply (encoding/json's uint64 encoder); the mock's
 * result writer does the same for a bigint anywhere in a handler's answer, so no read special-cases its big numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, rpc } from '../support/rpc.ts';
import { goStringify } from '../../runtime/server/encode.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, validateResults: true, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node.close());

const text = async (path: string, method: string, params: unknown = {}) =>
  (await send(node.url + path, { body: rpc(method, params) })).text;

describe('uint64 past 2^53 on the wire', () => {
  it('goStringify writes a bigint as its digits, nested in objects and arrays, and Go-escapes the rest', () => {
    expect(goStringify({ a: [{ b: 18446744073709551615n }], c: '<', d: 1n })).toBe(
      '{"a":[{"b":18446744073709551615}],"c":"\\u003c","d":1}',
    );
    expect(goStringify(2n ** 64n - 1n)).toBe('18446744073709551615');
  });

  // vms/platformvm/service.go:2018 GetFeeStateReply {gas.State (capacity, excess uint64), price gas.Price uint64,
  // timestamp time.Time}; :2055 GetValidatorFeeStateReply {excess, price, timestamp}: bare uint64s. gas.CalculatePrice
  // caps the price at math.MaxUint64 (vms/components/gas/gas.go), which the node writes as 18446744073709551615.
  it('getFeeState and getValidatorFeeState write a price capped at 2^64-1 exactly, through the result validator', async () => {
    const { world } = node;
    world.feeState.set({ ...world.feeState.get(), excess: 100_000_000n });
    world.validatorFeeState.set({ ...world.validatorFeeState.get(), excess: 100_000_000n });
    const fee = await text('/ext/bc/P', 'platform.getFeeState');
    expect(fee).toMatch(
      /^\{"jsonrpc":"2\.0","result":\{"capacity":\d+,"excess":100000000,"price":18446744073709551615,"timestamp":"[^"]+"\},"id":1\}\n$/,
    );
    const validatorFee = await text('/ext/bc/P', 'platform.getValidatorFeeState');
    expect(validatorFee).toMatch(
      /^\{"jsonrpc":"2\.0","result":\{"excess":100000000,"price":18446744073709551615,"timestamp":"[^"]+"\},"id":1\}\n$/,
    );
  });
});
