/**
 * The flagship spec: exactly the 120 methods on their endpoints (one, /ext/dev, is the mock's own), valid as
 * written and as bundled, every example validating (checksums included), and the version facts of the API
 * descriptions and the node's release history.
 */
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../generators/load/ajv.ts';
import { checkDocument } from '../../generators/load/meta-schema.ts';
import { loadModel } from '../../generators/pipeline.ts';
import { publishedDocument } from '../../generators/shared/published.ts';
import type { MethodModel } from '../../generators/model/types.ts';
import { INVALID_ARGUMENT } from '../../generated/server/dist/index.js';

const ENDPOINTS: Record<string, { path: string; methods: string[] }> = {
  'x-chain': {
    path: '/ext/bc/X',
    methods: [
      'getAddressTxs',
      'getAllBalances',
      'getAssetDescription',
      'getBalance',
      'getBlock',
      'getBlockByHeight',
      'getHeight',
      'getTx',
      'getTxFee',
      'getTxStatus',
      'getUTXOs',
      'issueTx',
    ].map((m) => `avm.${m}`),
  },
  'avm-static': { path: '/ext/vm/avm', methods: ['avm.buildGenesis'] },
  'x-wallet': { path: '/ext/bc/X/wallet', methods: ['wallet.issueTx'] },
  'c-avax': {
    path: '/ext/bc/C/avax',
    methods: ['getUTXOs', 'issueTx', 'getAtomicTxStatus', 'getAtomicTx', 'version'].map((m) => `avax.${m}`),
  },
  'p-chain': {
    path: '/ext/bc/P',
    methods: [
      'getAllValidatorsAt',
      'getBalance',
      'getBlock',
      'getBlockByHeight',
      'getBlockchains',
      'getBlockchainStatus',
      'getCurrentSupply',
      'getCurrentValidators',
      'getFeeConfig',
      'getFeeState',
      'getHeight',
      'getL1Validator',
      'getProposedHeight',
      'getMinStake',
      'getRewardUTXOs',
      'getStake',
      'getStakingAssetID',
      'getSubnet',
      'getSubnets',
      'getTimestamp',
      'getTotalStake',
      'getTx',
      'getTxStatus',
      'getUTXOs',
      'getValidatorsAt',
      'getValidatorFeeConfig',
      'getValidatorFeeState',
      'issueTx',
      'sampleValidators',
      'validatedBy',
      'validates',
    ].map((m) => `platform.${m}`),
  },
  admin: {
    path: '/ext/admin',
    methods: [
      'alias',
      'aliasChain',
      'dbGet',
      'getChainAliases',
      'getConfig',
      'getLoggerLevel',
      'loadVMs',
      'lockProfile',
      'memoryProfile',
      'setLoggerLevel',
      'stacktrace',
      'startCPUProfiler',
      'stopCPUProfiler',
    ].map((m) => `admin.${m}`),
  },
  indexer: {
    path: '/ext/index/P/block',
    methods: [
      'getContainerByID',
      'getContainerByIndex',
      'getContainerRange',
      'getIndex',
      'getLastAccepted',
      'isAccepted',
    ].map((m) => `index.${m}`),
  },
  proposervm: {
    path: '/ext/bc/P/proposervm',
    methods: ['proposervm.getCurrentEpoch', 'proposervm.getProposedHeight'],
  },
  keystore: {
    path: '/ext/keystore',
    methods: ['createUser', 'deleteUser', 'exportUser', 'importUser', 'listUsers'].map((m) => `keystore.${m}`),
  },
  info: {
    path: '/ext/info',
    methods: [
      'acps',
      'getBlockchainID',
      'getNetworkID',
      'getNetworkName',
      'getNodeID',
      'getNodeIP',
      'getNodeVersion',
      'getTxFee',
      'getVMs',
      'isBootstrapped',
      'peers',
      'upgrades',
      'uptime',
    ].map((m) => `info.${m}`),
  },
  health: { path: '/ext/health', methods: ['health', 'liveness', 'readiness'].map((m) => `health.${m}`) },
  dev: {
    path: '/ext/dev',
    methods: [
      'addL1Validator',
      'addStaker',
      'addSubnet',
      'addUtxo',
      'convertSubnet',
      'dumpState',
      'fund',
      'impersonate',
      'increaseTime',
      'listAccounts',
      'loadState',
      'mine',
      'removeUtxo',
      'reset',
      'revert',
      'setAutomine',
      'setConnection',
      'setFeeState',
      'setIntervalMining',
      'setL1ValidatorBalance',
      'setCode',
      'setStorageAt',
      'setNonce',
      'setSubnetOwner',
      'setTime',
      'simulateTx',
      'snapshot',
      'stopImpersonating',
    ].map((m) => `dev.${m}`),
  },
};

/**
 * Deprecations from the API descriptions (x-chain.md §9, p-chain.md §9, admin-keystore.md §9; the v1.9.12 release
 * notes deprecate every keystore method, createUser included) and availability from the node's release history
 * (wire notes §1 and RELEASES.md). Methods not listed are served by every release from v1.9.0 on and are not
 * deprecated.
 */
const VERSIONS: Record<string, { deprecatedSince?: string; since?: string; lastVersion?: string; removedIn?: string }> =
  {
    // coreth v0.16.0 (AvalancheGo v1.14.0) removed it (coreth #1406).
    'avax.version': { lastVersion: 'v1.13.5', removedIn: 'v1.14.0' },
    'avm.buildGenesis': { lastVersion: 'v1.10.17', removedIn: 'v1.10.18' },
    'avm.getAddressTxs': { deprecatedSince: 'v1.9.12', lastVersion: 'v1.13.0', removedIn: 'v1.13.1' },
    'avm.getAllBalances': { deprecatedSince: 'v1.9.12' },
    'avm.getBalance': { deprecatedSince: 'v1.9.12' },
    'avm.getTxStatus': { deprecatedSince: 'v1.10.0' },
    'avm.getTxFee': { since: 'v1.12.2' },
    // The X-Chain's block API arrived with its linearisation work (RELEASES.md v1.9.12); the P-Chain's by-height read
    // in v1.10.8.
    'avm.getBlock': { since: 'v1.9.12' },
    'avm.getBlockByHeight': { since: 'v1.9.12' },
    'avm.getHeight': { since: 'v1.9.12' },
    'platform.getBlockByHeight': { since: 'v1.10.8' },
    'platform.getSubnet': { since: 'v1.11.0' },
    'wallet.issueTx': { deprecatedSince: 'v1.9.12' },
    'platform.getBalance': { deprecatedSince: 'v1.9.12' },
    'platform.getBlockchains': { deprecatedSince: 'v1.9.12' },
    'platform.getRewardUTXOs': { deprecatedSince: 'v1.9.12' },
    'platform.getStake': { deprecatedSince: 'v1.9.12' },
    'platform.getSubnets': { deprecatedSince: 'v1.9.12' },
    'platform.getFeeConfig': { since: 'v1.11.11' },
    'platform.getFeeState': { since: 'v1.11.11' },
    'platform.getL1Validator': { since: 'v1.11.13' },
    'platform.getProposedHeight': { since: 'v1.11.13' },
    'platform.getValidatorFeeConfig': { since: 'v1.12.2' },
    'platform.getValidatorFeeState': { since: 'v1.12.2' },
    // vms/platformvm/service.go GetAllValidatorsAt and vms/proposervm/service.go arrived in v1.14.0; api/admin/service.go
    // DbGet in v1.10.19 (getConfig and stacktrace predate v1.9.0).
    'platform.getAllValidatorsAt': { since: 'v1.14.0' },
    'proposervm.getProposedHeight': { since: 'v1.14.0' },
    'proposervm.getCurrentEpoch': { since: 'v1.14.0' },
    'admin.dbGet': { since: 'v1.10.19' },
    // api/info/service.md and RELEASES.md: info.acps in v1.10.18, info.upgrades in v1.11.11, info.getTxFee deprecated
    // in v1.12.2.
    'info.acps': { since: 'v1.10.18' },
    'info.upgrades': { since: 'v1.11.11' },
    'info.getTxFee': { deprecatedSince: 'v1.12.2' },
    ...Object.fromEntries(
      ENDPOINTS.keystore!.methods.map((m) => [
        m,
        { deprecatedSince: 'v1.9.12', lastVersion: 'v1.12.1', removedIn: 'v1.12.2' },
      ]),
    ),
  };

const model = loadModel('openrpc');
const methods = model.endpoints.flatMap((e) => e.methods.map((m) => ({ endpoint: e.name, method: m })));
const byName = new Map<string, MethodModel>(methods.map(({ method }) => [method.name, method]));

describe('the spec', () => {
  it('has exactly the 120 methods, each on its endpoint, once', () => {
    expect(methods).toHaveLength(120);
    expect(new Set(methods.map(({ method }) => method.name)).size).toBe(120);
    const actual = Object.fromEntries(
      model.endpoints.map((e) => [e.name, { path: e.defaultPath, methods: e.methods.map((m) => m.name).sort() }]),
    );
    const expected = Object.fromEntries(
      Object.entries(ENDPOINTS).map(([name, e]) => [name, { path: e.path, methods: [...e.methods].sort() }]),
    );
    expect(actual).toEqual(expected);
  });

  it('names every method <service>.<lowerCamelCase>, the only form the node accepts', () => {
    for (const { method } of methods)
      expect(method.name).toMatch(
        /^(avm|wallet|platform|avax|admin|keystore|info|health|dev|index|proposervm)\.[a-z][a-zA-Z0-9]*$/,
      );
  });

  it('serves each endpoint on the default base URL, with the blockchain ID as a variable on AVM chains', () => {
    for (const endpoint of model.endpoints) expect(endpoint.defaultBaseUrl).toBe('http://127.0.0.1:9650');
    const xChain = model.endpoints.find((e) => e.name === 'x-chain')!;
    expect(xChain.pathVariables).toEqual([expect.objectContaining({ name: 'blockchainID', default: 'X' })]);
  });

  it('publishes bundles that are valid, self-contained OpenRPC', () => {
    for (const endpoint of model.endpoints) {
      const document = publishedDocument(endpoint);
      expect(checkDocument(document), endpoint.name).toEqual([]);
      const refs = JSON.stringify(document).match(/"\$ref":"[^"]*"/g) ?? [];
      for (const ref of refs) expect(ref).toMatch(/^"\$ref":"#\/components\//);
    }
  });

  it.each(Object.keys(ENDPOINTS).flatMap((e) => ENDPOINTS[e]!.methods))(
    '%s: versions and deprecation agree with the docs and the node',
    (name) => {
      const method = byName.get(name)!;
      const expected = VERSIONS[name] ?? {};
      expect(method.versions).toEqual(expected);
      expect(method.deprecated).toBe(expected.deprecatedSince !== undefined);
      if (method.deprecated) expect(method.replacement).toBeTruthy();
    },
  );

  it.each(methods.map(({ method }) => [method.name, method] as const))('%s: is fully described', (_name, method) => {
    expect(method.summary.length).toBeGreaterThan(10);
    expect(method.description.length).toBeGreaterThan(20);
    expect(method.examples.length).toBeGreaterThan(0);
    for (const param of method.params) expect(param.description.length).toBeGreaterThan(5);
    expect(method.result).toBeDefined();
    if (method.params.length > 0) expect(method.errors.map((e) => e.code)).toContain(-32000);
    for (const error of method.errors) {
      expect(Number.isInteger(error.code)).toBe(true);
      expect(error.message.length).toBeGreaterThan(3);
    }
  });
});

describe('the wire truths the prose docs get wrong', () => {
  const resultProps = (name: string) => Object.keys((byName.get(name)!.result!.schema.properties ?? {}) as object);
  const discrepancies = (name: string) => byName.get(name)!.discrepancies.join(' ');

  it('getTimestamp returns timestamp, documented as time', () => {
    expect(resultProps('platform.getTimestamp')).toEqual(['timestamp']);
    expect(discrepancies('platform.getTimestamp')).toMatch(/`time`/);
  });
  it('getTotalStake returns stake and weight; getCurrentSupply returns height', () => {
    expect(resultProps('platform.getTotalStake').sort()).toEqual(['stake', 'weight']);
    expect(resultProps('platform.getCurrentSupply').sort()).toEqual(['height', 'supply']);
  });
  it('Info quotes the numbers the node quotes and keeps bare the ones it does not', () => {
    const example = (name: string) => byName.get(name)!.examples[0]!.result as Record<string, unknown>;
    expect(example('info.getNetworkID').networkID).toBe('12345');
    expect(example('info.peers').numPeers).toBe('4');
    expect(typeof (example('info.peers').peers as Array<Record<string, unknown>>)[0]!.upgradeTime).toBe('number');
    expect(example('info.uptime').rewardingStakePercentage).toMatch(/^\d+\.\d{4}$/);
    expect(typeof example('info.upgrades').graniteEpochDuration).toBe('number');
    expect(resultProps('info.getVMs')).toEqual(['vms', 'fxs']);
    expect(discrepancies('info.getVMs')).toMatch(/`fxs`/);
  });
  it('marks the development controls, and only them, as served by the mock alone', () => {
    expect(model.endpoints.filter((e) => e.published['x-mock-only'] === true).map((e) => e.name)).toEqual(['dev']);
    for (const method of model.endpoints.find((e) => e.name === 'dev')!.methods)
      expect(method.description).toMatch(/never by AvalancheGo or a server generated from this spec/);
  });
  it('Health documents its GET forms', () => {
    const document = model.endpoints.find((e) => e.name === 'health')!.published as {
      methods: Array<{ name: string; 'x-http-get': { paths: string[] } }>;
    };
    const paths = (name: string) => document.methods.find((m) => m.name === name)!['x-http-get'].paths;
    expect(paths('health.health')).toEqual(['/ext/health', '/ext/health/health']);
    expect(paths('health.readiness')).toEqual(['/ext/health/readiness']);
    expect(paths('health.liveness')).toEqual(['/ext/health/liveness']);
  });
  it('getValidatorsAt returns a bare map of node IDs', () => {
    const schema = byName.get('platform.getValidatorsAt')!.result!.schema;
    expect(schema.properties).toBeUndefined();
    const example = byName.get('platform.getValidatorsAt')!.examples[0]!.result as Record<string, unknown>;
    for (const key of Object.keys(example)) expect(key).toMatch(/^NodeID-/);
  });
  it('admin.setLoggerLevel returns loggerLevels', () => {
    expect(resultProps('admin.setLoggerLevel')).toEqual(['loggerLevels']);
  });
  it('keystore.listUsers is documented as ListUsers, which the node rejects', () => {
    expect(discrepancies('keystore.listUsers')).toMatch(/ListUsers/);
  });
  it('names the documented spellings the node does not send', () => {
    expect(discrepancies('avm.getAssetDescription')).toMatch(/assetId/);
    expect(discrepancies('platform.getCurrentValidators')).toMatch(/delegationFeeRate/);
    expect(discrepancies('platform.getCurrentValidators')).toMatch(/proofOfPosession/);
  });
  it('getTxStatus on the P-Chain allows Aborted', () => {
    expect(JSON.stringify(byName.get('platform.getTxStatus')!.result!.schema)).toMatch(/Aborted/);
  });
});

describe('errors and examples the node really produces', () => {
  const messages = (name: string) => byName.get(name)!.errors.map((e) => `${e.code} ${e.message}`);

  it.each([
    ['platform.getSubnet', "-32000 the primary network isn't a subnet"],
    ['admin.setLoggerLevel', '-32000 need to specify either displayLevel or logLevel'],
    ['keystore.createUser', '-32000 password is too weak'],
    ['admin.startCPUProfiler', '-32000 cpu profiler already running'],
    ['admin.stopCPUProfiler', "-32000 cpu profiler doesn't exist"],
    ['platform.getBlockchainStatus', "-32000 argument 'blockchainID' not given"],
  ])('%s documents "%s"', (name, message) => {
    expect(messages(name)).toContain(message);
  });

  it('every method documents the decode error, params or not (the node decodes the params of all alike)', () => {
    const decodeError = `-32000 ${INVALID_ARGUMENT}`;
    for (const { method } of methods) expect(messages(method.name), method.name).toContain(decodeError);
  });

  it('every method with an encoding param documents the decode error an unknown encoding gets', () => {
    const decodeError = `-32000 ${INVALID_ARGUMENT}`;
    const withEncoding = methods.filter(({ method }) => method.params.some((p) => p.name === 'encoding'));
    expect(withEncoding.length).toBeGreaterThan(10);
    for (const { method } of withEncoding) expect(messages(method.name), method.name).toContain(decodeError);
  });

  it.each([
    'avm.getBlock',
    'avm.getBlockByHeight',
    'avm.getTx',
    'avm.getUTXOs',
    'platform.getBlock',
    'platform.getTx',
    'platform.getUTXOs',
    'platform.getCurrentValidators',
    'platform.getTotalStake',
  ])('%s has an example for each materially different answer', (name) => {
    const examples = byName.get(name)!.examples;
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(new Set(examples.map((e) => JSON.stringify(e.result))).size).toBe(examples.length);
  });

  it('shows hex and json encodings of blocks and transactions', () => {
    for (const name of ['avm.getBlock', 'avm.getTx', 'platform.getBlock', 'platform.getTx']) {
      const encodings = byName.get(name)!.examples.map((e) => (e.result as { encoding?: string }).encoding);
      expect(encodings, name).toEqual(expect.arrayContaining(['hex', 'json']));
    }
  });
});

describe("encoded bytes follow the answer's own encoding", () => {
  const ajv = createAjv({ strict: false });
  for (const endpoint of model.endpoints) ajv.addSchema(publishedDocument(endpoint), endpoint.name);
  const validatorOf = (name: string) => {
    const { endpoint } = methods.find(({ method }) => method.name === name)!;
    const index = model.endpoints.find((e) => e.name === endpoint)!.methods.findIndex((m) => m.name === name);
    return ajv.getSchema(`${endpoint}#/methods/${index}/result/schema`)!;
  };
  /** The last hex digit changed, so the trailing 4-byte checksum no longer matches. */
  const corrupt = (hex: string) => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

  it.each([
    ['avm.getTx', 'tx'],
    ['avm.getBlock', 'block'],
    ['avm.getBlockByHeight', 'block'],
    ['platform.getTx', 'tx'],
    ['platform.getBlock', 'block'],
    ['platform.getBlockByHeight', 'block'],
    ['avm.getUTXOs', 'utxos'],
    ['platform.getUTXOs', 'utxos'],
    ['keystore.exportUser', 'user'],
    ['avm.buildGenesis', 'bytes'],
    ['platform.getRewardUTXOs', 'utxos'],
    ['platform.getStake', 'stakedOutputs'],
  ])('%s: `hex` needs the checksum, `hexnc` does not, `json` needs the object form', (name, field) => {
    const validate = validatorOf(name);
    const example = byName
      .get(name)!
      .examples.map((e) => e.result as Record<string, unknown>)
      .find((r) => r.encoding === 'hex')!;
    const bytes = example[field];
    const hex = Array.isArray(bytes) ? (bytes[0] as string) : (bytes as string);
    const withBytes = (value: string, encoding: string) => ({
      ...example,
      encoding,
      [field]: Array.isArray(bytes) ? [value] : value,
    });
    expect(validate(withBytes(hex, 'hex')), name).toBe(true);
    expect(validate(withBytes(hex, 'hexc')), name).toBe(true);
    expect(validate(withBytes(corrupt(hex), 'hex')), name).toBe(false);
    expect(validate(withBytes(corrupt(hex), 'hexnc')), name).toBe(true);
    if (
      byName.get(name)!.params.find((p) => p.name === 'encoding')?.schema.$ref === '#/components/schemas/EncodingParam'
    ) {
      expect(validate(withBytes(hex, 'json')), name).toBe(false);
    }
  });
});

describe('integer encodings on the wire', () => {
  /** Every component schema name reachable from `schema`, following `#/components/schemas/` refs. */
  function reachable(schema: unknown, seen = new Set<string>()): Set<string> {
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') {
            const name = value.replace('#/components/schemas/', '');
            if (!seen.has(name)) {
              seen.add(name);
              visit(model.schemas[name]);
            }
          } else visit(value);
        }
      }
    };
    visit(schema);
    return seen;
  }
  const OUTPUT_INTEGERS = ['Uint64', 'Uint32', 'Uint8', 'UnixTime'];

  it.each(methods.map(({ method }) => [method.name, method] as const))(
    '%s: params accept both forms, results use the quoted form',
    (_name, method) => {
      for (const param of method.params) {
        const used = [...reachable(param.schema)];
        expect(
          used.filter((n) => OUTPUT_INTEGERS.includes(n)),
          `param ${param.name}`,
        ).toEqual([]);
      }
      const resultTypes = [...reachable(method.result!.schema)];
      expect(
        resultTypes.filter((n) => n.endsWith('Param')),
        'result',
      ).toEqual([]);
    },
  );
});

describe('side effects', () => {
  it('marks exactly the transaction submitters as chain writes and the node-state changers as node writes', () => {
    const of = (kind: string) =>
      methods
        .filter(({ method }) => method.sideEffects === kind)
        .map(({ method }) => method.name)
        .sort();
    expect(of('chain')).toEqual([
      'avax.issueTx',
      'avm.issueTx',
      'dev.addL1Validator',
      'dev.addStaker',
      'dev.addSubnet',
      'dev.addUtxo',
      'dev.convertSubnet',
      'dev.fund',
      'dev.increaseTime',
      'dev.loadState',
      'dev.mine',
      'dev.removeUtxo',
      'dev.reset',
      'dev.revert',
      'dev.setCode',
      'dev.setConnection',
      'dev.setFeeState',
      'dev.setL1ValidatorBalance',
      'dev.setNonce',
      'dev.setStorageAt',
      'dev.setSubnetOwner',
      'dev.setTime',
      'platform.issueTx',
      'wallet.issueTx',
    ]);
    expect(of('node')).toEqual([
      'admin.alias',
      'admin.aliasChain',
      'admin.loadVMs',
      'admin.lockProfile',
      'admin.memoryProfile',
      'admin.setLoggerLevel',
      'admin.stacktrace',
      'admin.startCPUProfiler',
      'admin.stopCPUProfiler',
      'dev.impersonate',
      'dev.setAutomine',
      'dev.setIntervalMining',
      'dev.snapshot',
      'dev.stopImpersonating',
      'keystore.createUser',
      'keystore.deleteUser',
      'keystore.importUser',
    ]);
    expect(of('none')).toHaveLength(79);
  });
});
