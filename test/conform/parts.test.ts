/** The runner's parts, table-driven: error-message matching, wrong-type values, live-param swaps, safety, versions. */
import { describe, expect, it } from 'vitest';
import { invalidCases, wrongTypeValue } from '../../conform/cases.ts';
import { Facts, substituteParams } from '../../conform/discovery.ts';
import { messagePattern } from '../../generators/model/errors.ts';
import { notServedReason } from '../../generators/model/versions.ts';
import { isSafeRead, loadSpecModel, parseNodeVersion } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';

const validator = new SpecValidator(loadSpecModel());
const entry = (name: string) => validator.methods.get(name)!;

describe('documented error messages, variable parts as wildcards', () => {
  const cases: Array<[string, string, boolean]> = [
    [
      "couldn't get block with id d7WYmb8VeZNHsny3EJCwMm6QA37s1EHwMxw1Y71V3FqPZ5EFG: not found",
      "couldn't get block with id 2EW6trC7aMYCU1BNQpmKZQf2gR47YPwMyR3pZPe1V3RnwfwbDz: not found",
      true,
    ],
    ["couldn't get block at height 99999999999: not found", "couldn't get block at height 7: not found", true],
    ['logger with name "Z" not found', 'logger with name "http" not found', true],
    ["asset 'FOO' not found", "asset '' not found", true],
    [
      'fetching L1 validator "9FAftNgNBrzHUMMApsSyV6RcFiL9UmCbvsCu28xdLV2mQ7CMo" failed: not found',
      'fetching L1 validator "x" failed: not found',
      true,
    ],
    ["couldn't get tx: not found", "couldn't get tx: not found", true],
    [
      'problem parsing source chainID "Q": there is no ID with alias: Q',
      'problem parsing source chainID "my chain": there is no ID with alias: my chain',
      true,
    ],
    ['there is no ID with alias: Q', 'there is no ID with alias: Q, or another', true],
    ['there is no ID with alias: Q', 'there is no ID with alias:', false],
    ["couldn't get tx: not found", "couldn't get block: not found", false],
    ['not found', 'not found at all', false],
    ['nil transaction ID', 'nil transaction id', false],
  ];
  it.each(cases)('%s ~ %s: %s', (documented, actual, matches) => {
    expect(messagePattern(documented).test(actual)).toBe(matches);
  });
});

describe('a value of a type the param schema does not accept', () => {
  const schemaOf = (method: string, name: string) => entry(method).method.params.find((p) => p.name === name)!.schema;
  it.each([
    ['platform.getTx', 'txID', true],
    ['platform.getBlockByHeight', 'height', true],
    ['platform.getStake', 'validatorsOnly', 'wrong-type'],
    ['platform.getBalance', 'addresses', true],
  ] as const)('%s %s -> %j', (method, name, wrong) => {
    expect(wrongTypeValue(validator.model.schemas, schemaOf(method, name))).toEqual(wrong);
  });
  it('gives none for a schema that accepts anything', () => {
    expect(wrongTypeValue({}, {})).toBeUndefined();
  });
});

describe('live params swapped into examples', () => {
  const facts = new Facts();
  facts.harvest(entry('platform.getHeight').method, { height: '1000' });
  facts.harvest(entry('platform.getBlockByHeight').method, {
    block: {
      parentID: '2VRGr8zAdk5R8zQ9Fskd1dUkCyXti63RVGhCkzQqkaaqMoiBHY',
      height: 1000,
      id: 'd7WYmb8VeZNHsny3EJCwMm6QA37s1EHwMxw1Y71V3FqPZ5EFG',
      txs: [
        {
          unsignedTx: { outputs: [{ output: { addresses: ['P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5'] } }] },
          credentials: [],
          id: 'AkTcR1J5b6qPdLaUDycs1YqPAoNY9aPNyb33VSnvyQ6vTCryQ',
        },
      ],
    },
    encoding: 'json',
  });
  const swap = (method: string, params: Record<string, unknown>) =>
    substituteParams(entry(method).method, params as never, facts);

  it('keeps the example form of a height and named heights', () => {
    expect(swap('platform.getBlockByHeight', { height: 5, encoding: 'hex' })).toEqual({
      height: 1000,
      encoding: 'hex',
    });
    expect(swap('platform.getBlockByHeight', { height: '5' })).toEqual({ height: '1000' });
    expect(swap('platform.getValidatorsAt', { height: 'proposed' })).toEqual({ height: 'proposed' });
  });
  it('uses transaction and block IDs of the same chain only', () => {
    expect(swap('platform.getTx', { txID: '28KVjSw5h3XKGuNpJXWY74EdnGq4TUWvCgEtJPymgQTvudiugb' }).txID).toBe(
      'AkTcR1J5b6qPdLaUDycs1YqPAoNY9aPNyb33VSnvyQ6vTCryQ',
    );
    expect(swap('avm.getTx', { txID: '28KVjSw5h3XKGuNpJXWY74EdnGq4TUWvCgEtJPymgQTvudiugb' }).txID).toBe(
      '28KVjSw5h3XKGuNpJXWY74EdnGq4TUWvCgEtJPymgQTvudiugb',
    );
    expect(swap('platform.getBlock', { blockID: '2EW6trC7aMYCU1BNQpmKZQf2gR47YPwMyR3pZPe1V3RnwfwbDz' }).blockID).toBe(
      'd7WYmb8VeZNHsny3EJCwMm6QA37s1EHwMxw1Y71V3FqPZ5EFG',
    );
  });
  it('uses addresses found in outputs and drops a start index that belonged to the example', () => {
    expect(
      swap('platform.getUTXOs', { addresses: ['P-avax1a', 'P-avax1b'], startIndex: { address: 'x', utxo: 'y' } }),
    ).toEqual({ addresses: ['P-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5'] });
  });
  it('keeps the Primary Network ID and whatever nothing was found for', () => {
    expect(swap('platform.getCurrentSupply', { subnetID: '11111111111111111111111111111111LpoYY' })).toEqual({
      subnetID: '11111111111111111111111111111111LpoYY',
    });
    expect(
      swap('platform.getL1Validator', { validationID: '9FAftNgNBrzHUMMApsSyV6RcFiL9UmCbvsCu28xdLV2mQ7CMo' }),
    ).toEqual({ validationID: '9FAftNgNBrzHUMMApsSyV6RcFiL9UmCbvsCu28xdLV2mQ7CMo' });
  });
});

describe('what is safe to call, and what a release serves', () => {
  it.each([
    ['none', true],
    ['node', false],
    ['chain', false],
    [undefined, false],
  ] as const)('calls a method whose x-side-effects is %s: %s (unsaid counts as a write)', (sideEffects, safe) => {
    for (const { endpoint, method } of validator.methods.values())
      expect(isSafeRead({ endpoint, method: { ...method, sideEffects } })).toBe(safe);
  });
  it.each([
    ['platform.getFeeConfig', 'v1.11.10', 'not served by v1.11.10 (served since v1.11.11)'],
    ['platform.getFeeConfig', 'v1.11.11', undefined],
    ['keystore.listUsers', 'v1.12.1', undefined],
    ['keystore.listUsers', 'v1.12.2', 'not served by v1.12.2 (removed in v1.12.2)'],
    ['avm.getAddressTxs', 'v1.13.1', 'not served by v1.13.1 (removed in v1.13.1)'],
  ])('%s on %s: %s', (method, version, reason) => {
    expect(notServedReason(entry(method).method, version)).toBe(reason);
  });
  it('reads the release from info.getNodeVersion', () => {
    expect(parseNodeVersion('avalanchego/1.14.2')).toBe('v1.14.2');
    expect(parseNodeVersion('avalanchego/1.15.0-fuji')).toBe('v1.15.0-fuji');
    expect(parseNodeVersion('unknown')).toBeUndefined();
  });
});

describe('a required param left out', () => {
  const cases = (name: string) => {
    const { method } = entry(name);
    const valid = method.examples[0]!.params as Record<string, never>;
    return invalidCases(
      validator.model.schemas,
      method,
      valid,
      (p) => validator.checkParams(name, p).length > 0,
    ).filter((c) => c.kind === 'missing-required' || c.kind === 'absent-as-zero');
  };

  it('is answered as its zero value where the spec says x-zero-when-absent, with the explicit call as its twin', () => {
    expect(cases('platform.getTxStatus')).toEqual([
      {
        name: 'without required txID (answered as "11111111111111111111111111111111LpoYY")',
        kind: 'absent-as-zero',
        params: {},
        twin: { txID: '11111111111111111111111111111111LpoYY' },
      },
    ]);
    expect(cases('platform.getBlockByHeight').map((c) => [c.kind, c.twin?.height])).toEqual([['absent-as-zero', 0]]);
  });

  it('must get an error elsewhere, and is not sent to a write method (it would write the zero value)', () => {
    expect(cases('avm.getTxStatus').map((c) => c.kind)).toEqual(['missing-required']);
    expect(cases('admin.aliasChain').map((c) => c.name)).toEqual(['without required chain']);
  });
});
