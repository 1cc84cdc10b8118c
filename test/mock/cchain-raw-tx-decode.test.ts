/**
 * eth_sendRawTransaction of bytes that are no transaction, as coreth answers it: internal/ethapi/api.go
 * SendRawTransaction (v1.14.2) takes hexutil.Bytes and returns tx.UnmarshalBinary's error as is, a plain error the
 * server answers with -32000. libevm v1.13.14-0.4.0.rc.2 core/types/transaction.go UnmarshalBinary: a first byte over
 * 0x7f is a legacy tx (rlp.DecodeBytes into LegacyTx), else decodeTyped, whose `len(b) <= 1` is errShortTypedTx
 * ("typed transaction too short") and whose body is rlp-decoded into the type's struct.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const sendRaw = (raw: string) => callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_sendRawTransaction', [raw]);

describe('eth_sendRawTransaction of malformed bytes', () => {
  it('refuses an unknown type byte with "transaction type not supported"', async () => {
    expect((await sendRaw('0x05aa')).error).toMatchObject({ code: -32000, message: 'transaction type not supported' });
  });

  // decodeTyped: `if len(b) <= 1 { return nil, errShortTypedTx }` for no bytes and for a lone type byte. The mock
  // answers -32602 "input too short" (with "data": null), the Rust RLP decoder's words.
  it('refuses no bytes, and a lone type byte, as a typed tx too short (-32000)', async () => {
    for (const raw of ['0x', '0x02'])
      expect((await sendRaw(raw)).error).toMatchObject({ code: -32000, message: 'typed transaction too short' });
  });

  // rlp.DecodeBytes of an empty list into the tx struct: rlp's "too few elements for types.LegacyTx" /
  // "types.DynamicFeeTx" (rlp/decode.go wraps errors with the Go type decoded). The engine alone answers -32602 "input too
  // short".
  it('refuses an empty RLP list with rlp\'s "too few elements" for the tx type', async () => {
    expect((await sendRaw('0xc0')).error).toMatchObject({
      code: -32000,
      message: 'rlp: too few elements for types.LegacyTx',
    });
    expect((await sendRaw('0x02c0')).error).toMatchObject({
      code: -32000,
      message: 'rlp: too few elements for types.DynamicFeeTx',
    });
  });
});

/** A legacy tx's nine fields, each canonical (nonce 0, gas price 1, gas 1, no `to`, value 0, no data, v 27, r 1, s 1). */
const NINE_FIELDS = '8001018080801b0101';

describe('eth_sendRawTransaction of a malformed list', () => {
  // rlp/decode.go decodeStruct: Stream.List's ErrExpectedList, then ListEnd's errNotAtEOL, both wrapped with the type;
  // DecodeBytes: ErrMoreThanOneValue after a whole value.
  it("refuses a string, a list too long and bytes after the list in rlp's words", async () => {
    expect((await sendRaw('0x8180')).error).toMatchObject({
      code: -32000,
      message: 'rlp: expected input list for types.LegacyTx',
    });
    expect((await sendRaw(`0xca${NINE_FIELDS}80`)).error).toMatchObject({
      code: -32000,
      message: 'rlp: input list has too many elements for types.LegacyTx',
    });
    expect((await sendRaw(`0xc9${NINE_FIELDS}00`)).error).toMatchObject({
      code: -32000,
      message: 'rlp: input contains more than one value',
    });
  });
});
