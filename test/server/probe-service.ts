/**
 * The service the recorded probe (fixtures/rpc-layer-probe.json) ran against: an `avm` service with getHeight,
 * echo (its decoded args, Go zero values included), fail, nothing and mapped, served by the generated runtime.
 */
import { createAjv } from '../../generators/load/ajv.ts';
import {
  type Endpoint,
  type EndpointOptions,
  INVALID_ARGUMENT,
  type MethodSpec,
  type Shape,
  type ValidateFunction,
  createEndpoint,
} from '../../generated/server/dist/index.js';

const uint = {
  anyOf: [
    { type: 'string', pattern: '^[0-9]+$' },
    { type: 'integer', minimum: 0 },
  ],
};
const echoParams = {
  type: 'object',
  properties: {
    addresses: { type: 'array', items: { type: 'string' } },
    limit: uint,
    startIndex: { type: 'object', properties: { address: { type: 'string' }, utxo: { type: 'string' } } },
    encoding: { type: 'string', pattern: '^([hH][eE][xX]([nN][cC]|[cC])?|[jJ][sS][oO][nN])$' },
    assetID: { type: 'string' },
    networkID: uint,
  },
};
const echoShape: Shape = {
  properties: {
    ADDRESSES: { name: 'addresses', shape: { items: {} } },
    LIMIT: { name: 'limit' },
    STARTINDEX: {
      name: 'startIndex',
      shape: { properties: { ADDRESS: { name: 'address' }, UTXO: { name: 'utxo' } } },
    },
    ENCODING: { name: 'encoding' },
    ASSETID: { name: 'assetID' },
    NETWORKID: { name: 'networkID' },
  },
};

const ajv = createAjv();
const anything = ajv.compile({}) as unknown as ValidateFunction;
const none = ajv.compile({ type: 'object' }) as unknown as ValidateFunction;
const method = (name: string, validateParams: ValidateFunction, shape: Shape = { properties: {} }): MethodSpec => ({
  name: `avm.${name}`,
  handler: name,
  params: Object.values(shape.properties ?? {}).map((property) => property.name),
  byName: true,
  shape,
  validateParams,
  validateResult: anything,
});

interface EchoArgs {
  addresses?: string[];
  limit?: string | number;
  startIndex?: { address?: string; utxo?: string };
  encoding?: string;
  assetID?: string;
  networkID?: string | number;
}

export const probeHandlers = {
  getHeight: () => ({ height: '42' }),
  echo: (args: EchoArgs) => ({
    args: {
      addresses: args.addresses ?? null,
      limit: String(args.limit ?? 0),
      startIndex: { address: args.startIndex?.address ?? '', utxo: args.startIndex?.utxo ?? '' },
      encoding: (args.encoding ?? 'hex').toLowerCase(),
      assetID: args.assetID ?? '',
      networkID: String(args.networkID ?? 0),
    },
    f: '2.5000',
    t: '2020-09-13T12:26:40Z',
    n: null,
  }),
  fail: () => {
    throw new Error('some handler error');
  },
  nothing: () => ({}),
  mapped: () => ({ 'NodeID-x': '1' }),
};

export function probeEndpoint(options: EndpointOptions = {}): Endpoint {
  const methods = [
    method('getHeight', none),
    method('echo', ajv.compile(echoParams) as unknown as ValidateFunction, echoShape),
    method('fail', none),
    method('nothing', none),
    method('mapped', none),
  ];
  return createEndpoint(
    {
      name: 'probe',
      methods,
      document: { openrpc: '1.3.2', info: { title: 'probe', version: '1' }, methods: [] },
      invalidArgument: INVALID_ARGUMENT,
    },
    probeHandlers,
    { discover: false, ...options },
  );
}
