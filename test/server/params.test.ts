/** Params decoding as Go fills an args struct: the object itself when it already is its decoding, else a copy. */
import { describe, expect, it } from 'vitest';
import { type Shape, foldValue } from '../../generated/server/dist/runtime/params.js';

const INNER: Shape = { properties: { TXID: { name: 'txID' } } };
const SHAPE: Shape = {
  properties: {
    ADDRESS: { name: 'address' },
    MEMO: { name: 'memo', nullable: true },
    OUTPUT: { name: 'output', shape: INNER },
    OUTPUTS: { name: 'outputs', shape: { items: INNER } },
    BYNAME: { name: 'byName', shape: { values: INNER } },
  },
};

describe('foldValue', () => {
  it('returns params already spelled as declared as they are, nested ones included', () => {
    const params = JSON.parse(
      '{"address":"a","memo":null,"output":{"txID":"t"},"outputs":[{"txID":"t"}],"byName":{"k":{"txID":"t"}}}',
    ) as object;
    expect(foldValue(params, SHAPE)).toBe(params);
  });

  it('copies when a key differs in case, a null is dropped or an unknown key goes, at any depth', () => {
    for (const [sent, decoded] of [
      ['{"ADDRESS":"a"}', { address: 'a' }],
      ['{"address":"a","Address":"b"}', { address: 'b' }],
      ['{"Address":"b","address":"a"}', { address: 'a' }],
      ['{"address":null}', {}],
      ['{"address":"a","extra":1,"__proto__":{"x":1}}', { address: 'a' }],
      ['{"output":{"TXID":"t"}}', { output: { txID: 't' } }],
      ['{"outputs":[{"txID":"t"},{"txid":"u"}]}', { outputs: [{ txID: 't' }, { txID: 'u' }] }],
      ['{"byName":{"k":{"TxId":"t"}}}', { byName: { k: { txID: 't' } } }],
    ] as const) {
      const params = JSON.parse(sent) as Record<string, unknown>;
      const folded = foldValue(params, SHAPE) as Record<string, unknown>;
      expect(folded, sent).not.toBe(params);
      expect(folded, sent).toEqual(decoded);
      expect(Object.getPrototypeOf(folded)).toBe(Object.prototype);
    }
  });

  it("folds as Go's unicode.SimpleFold: long s and the Kelvin sign match, dotless i (Turkic folding only) does not", () => {
    const shape: Shape = { properties: { ADDRESS: { name: 'address' }, TXID: { name: 'txID' }, KEY: { name: 'key' } } };
    const params = JSON.parse('{"addre\u017f\u017f":"a","\u212aey":"k","txId":"t","tx\u0131d":"x"}') as object;
    expect(foldValue(params, shape)).toEqual({ address: 'a', key: 'k', txID: 't' });
  });

  it('keeps the unchanged items of a copied array and the untouched members of a copied object', () => {
    const params = JSON.parse('{"outputs":[{"txID":"t"},{"TXID":"u"}],"output":{"txID":"v"},"ADDRESS":"a"}') as {
      outputs: object[];
      output: object;
    };
    const folded = foldValue(params, SHAPE) as { outputs: object[]; output: object };
    expect(folded.outputs[0]).toBe(params.outputs[0]);
    expect(folded.output).toBe(params.output);
  });
});
