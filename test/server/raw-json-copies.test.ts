/**
 * A RawJson is one whichever copy of the runtime made it: the mock's world writes its replies with the runtime's
 * source (runtime/server/rpc.ts) and the generated package, a copy of it, sends them as they are.
 */
import { describe, expect, it } from 'vitest';
import { RawJson, createXChainEndpoint } from '../../generated/server/dist/index.js';
import { RawJson as SourceRawJson } from '../../runtime/server/rpc.ts';

const call = (method: string) =>
  new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }));
const text = (body: string | Uint8Array) => (typeof body === 'string' ? body : new TextDecoder().decode(body));

describe('RawJson across copies of the runtime', () => {
  it("is told by its mark, not by which copy's class made it", () => {
    expect(SourceRawJson.verbatim('{}') instanceof RawJson).toBe(true);
    expect(RawJson.bytes([]) instanceof SourceRawJson).toBe(true);
    expect({ text: '{}', json: '{}' } instanceof RawJson).toBe(false);
    expect((null as unknown) instanceof RawJson).toBe(false);
  });

  it("is sent as written when another copy made it: Go's bare uint64 stays bare", async () => {
    const endpoint = createXChainEndpoint({
      getHeight: () => SourceRawJson.verbatim('{"height":18446744073709551615}'),
    });
    const reply = await endpoint.answer(call('avm.getHeight'), { headers: {} });
    expect(text(reply.body)).toBe('{"jsonrpc":"2.0","result":{"height":18446744073709551615},"id":1}\n');
  });
});
