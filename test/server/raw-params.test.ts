/**
 * json2 keeps a request's params as raw bytes and decodes them into the method's args struct, where encoding/json
 * skips every member the struct does not declare. The reader does the same: what it builds is counted, so a request
 * of 200,000 unknown keys (which took the mock seconds to build, fold and validate) is shown to build nothing but
 * the declared member, whatever the machine's speed.
 */
import { describe, expect, it } from 'vitest';
import { GoSyntaxError, RawValue, parseFirstValue, parseRequest } from '../../runtime/server/json.ts';
import { type Shape, decodeParams } from '../../runtime/server/params.ts';
import { readNodeRequest } from '../../runtime/server/request.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const unknown = (count: number) => Array.from({ length: count }, (_, i) => `"k${i}":${i % 2 ? '[1,{"a":2}]' : 1}`);
const request = (params: string) => `{"jsonrpc":"2.0","id":1,"method":"info.getBlockchainID","params":${params}}`;
const ALIAS: Shape = { properties: { ALIAS: { name: 'alias' } } };

function paramsOf(text: string): RawValue {
  const parsed = parseRequest(bytes(text));
  const params = parsed.members.find((member) => member.key.toUpperCase() === 'PARAMS')?.value;
  expect(params).toBeInstanceOf(RawValue);
  return params as RawValue;
}

describe('raw params', () => {
  it('builds nothing of 200,000 unknown keys, in the envelope or in params, and only the declared member', () => {
    const text =
      `{"jsonrpc":"2.0",${unknown(200_000).join(',')},"id":1,"method":"info.getBlockchainID",` +
      `"params":{${unknown(200_000).join(',')},"alias":"X"}}`;
    const parsed = parseRequest(bytes(text));
    expect(parsed.built).toBe(0);
    expect(parsed.members.map((member) => member.key)).toEqual(['jsonrpc', 'id', 'method', 'params']);
    // The plain reader, which the request reader replaced, builds every one of them.
    expect(parseFirstValue(bytes(text)).built).toBeGreaterThan(400_000);
    const read = paramsOf(text).read(ALIAS);
    expect(read).toEqual({ value: { alias: 'X' }, built: 1 });
  });

  it('builds nothing of an ignored member of 200,000 keys, 200,000 items, a 1 MB key or 9,000 levels', () => {
    for (const ignored of [
      `{${unknown(200_000).join(',')}}`,
      `[${Array(200_000).fill('"x"').join(',')}]`,
      `${'['.repeat(9000)}${']'.repeat(9000)}`,
    ]) {
      expect(paramsOf(request(`{"x":${ignored},"alias":"X"}`)).read(ALIAS)).toEqual({
        value: { alias: 'X' },
        built: 1,
      });
      // After the args object in a params array, as Go's [1]interface{} skips it.
      expect(paramsOf(request(`[{"alias":"X"},${ignored}]`)).read(ALIAS)).toEqual({ value: { alias: 'X' }, built: 1 });
    }
    const long = `{"${'k'.repeat(1 << 20)}":1,"alias":"X"}`;
    expect(paramsOf(request(long)).read(ALIAS)).toEqual({ value: { alias: 'X' }, built: 1 });
  });

  it('still refuses bad JSON and nesting past 10,000 levels inside an ignored member, in Go words', () => {
    expect(() => parseRequest(bytes(request('{"x":[1,},"alias":"X"}')))).toThrow(
      new GoSyntaxError("invalid character '}' looking for beginning of value"),
    );
    expect(() => parseRequest(bytes(request(`{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`)))).toThrow(
      new GoSyntaxError("invalid character '[' exceeded max depth"),
    );
    expect(() => parseRequest(bytes(request('{"x":"\\q"}')))).toThrow(
      new GoSyntaxError("invalid character 'q' in string escape code"),
    );
  });

  it('lets the last of the declared duplicates win in the order written, folded as Go folds', () => {
    const decode = (params: string) => paramsOf(request(params)).decode(ALIAS);
    expect(decode(`{${Array(100_000).fill('"alias":"no"').join(',')},"alias":"X"}`)).toEqual({ alias: 'X' });
    expect(decode('{"alias":"a","ALIAS":"b","aLiAs":"c"}')).toEqual({ alias: 'c' });
    // U+017F (long s) folds to S in Go's foldName; U+0131 (dotless i) folds to itself.
    expect(decode('{"aliaſ":"long s"}')).toEqual({ alias: 'long s' });
    expect(decode('{"alıas":"dotless"}')).toEqual({});
    // encoding/json leaves a non-pointer field as it was when the value is null.
    expect(decode('{"alias":"a","alias":null}')).toEqual({ alias: 'a' });
    expect(decode('{"__proto__":{"alias":"p"},"alias":"X"}')).toEqual({ alias: 'X' });
  });

  it('reads a small request writing a key twice as Go does, not as the native parse of plain requests would', () => {
    const decode = (params: string) => decodeParams(readNodeRequest(bytes(request(params))).params, ALIAS);
    expect(decode('{"alias":"a","alias":null}')).toEqual({ alias: 'a' });
    expect(decode('{"alias":"a","ALIAS":"b","alias":"c"}')).toEqual({ alias: 'c' });
    expect(decode('{"ALIAS":"b","alias":"c","ALIAS":"d"}')).toEqual({ alias: 'd' });
    expect(decode('{"alias":"a"}')).toEqual({ alias: 'a' });
  });

  it('decodes declared members by their shape and keeps the keys of maps', () => {
    const shape: Shape = {
      properties: {
        OUTER: {
          name: 'outer',
          shape: { properties: { INNER: { name: 'inner', nullable: true } }, values: undefined },
        },
        LIST: { name: 'list', shape: { items: { properties: { N: { name: 'n' } } } } },
        MAP: { name: 'map', shape: { values: { properties: { V: { name: 'v' } } } } },
        ASSENT: { name: 'asSent' },
      },
    };
    const params =
      '{"OUTER":{"inner":null,"junk":[1]},"list":[{"N":1,"x":2},{"n":3}],"map":{"K":{"v":1,"w":2},"k":null},' +
      '"assent":{"any":{"thing":[1]}},"other":1}';
    expect(paramsOf(request(params)).decode(shape)).toEqual({
      outer: { inner: null },
      list: [{ n: 1 }, { n: 3 }],
      map: { K: { v: 1 }, k: null },
      asSent: { any: { thing: [1] } },
    });
    expect(paramsOf(request(params)).decode(shape)).toEqual(decodeParams(JSON.parse(params), shape));
  });

  it('takes [{...}], [] and [null] as Go does, and refuses other params', () => {
    const decode = (params: string) => paramsOf(request(params)).decode(ALIAS);
    expect(decode('[]')).toEqual({});
    expect(decode('[ null, 1 ]')).toEqual({});
    expect(decode('[{"alias":"X"},{"alias":"Y"}]')).toEqual({ alias: 'X' });
    expect(decode('["x"]')).toBeUndefined();
    expect(decode('[[{"alias":"X"}]]')).toBeUndefined();
    expect(decodeParams('x', ALIAS)).toBeUndefined();
  });

  it('tells an integer beyond 2^53 in params, and reads its digits only when asked', () => {
    const text = request('{"alias":"X","n":9007199254740993}');
    expect(parseRequest(bytes(text)).unsafeIntegers).toBe(true);
    const shape: Shape = { properties: { N: { name: 'n' } } };
    expect(paramsOf(text).decode(shape)).toEqual({ n: 9007199254740992 });
    const exact = parseRequest(bytes(text), true).members.find((member) => member.key === 'params')?.value;
    expect((exact as RawValue).decode(shape)).toEqual({ n: '9007199254740993' });
    expect(parseRequest(bytes(request('{"n":900719925474099}'))).unsafeIntegers).toBe(false);
  });
});
