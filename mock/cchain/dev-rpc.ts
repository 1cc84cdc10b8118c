/**
 * anvil's `anvil_*`, Hardhat's `hardhat_*` and the shared `evm_*` methods at `/ext/bc/C/rpc`
 * (openrpc/c-chain/c-chain-dev.json), for viem's test client, Hardhat's network helpers and Foundry scripts: each is one
 * of the dev controls of `/ext/dev` (./dev-rpc-handlers.ts), served only while those are on. The generated server's
 * plain JSON-RPC profile reads each call against the document (params by position, -32602 for bad ones) and hands it
 * to its typed handler; rpc.ts answers everything else as coreth does.
 */
import type { Endpoint } from '../../generated/c-chain/server/dist/index.js';
import type { DevControls } from '../engine/dev.ts';
import type { World } from '../world/world.ts';
import type { CChain } from './evm.ts';

/** The dev controls of each world whose node serves them (`/ext/dev` on, the default). */
const served = new WeakMap<World, DevControls>();

/** Serves the world's dev controls at `/ext/bc/C/rpc` too: called by a node whose `/ext/dev` is on. */
export function serveDevMethods(world: World, dev: DevControls): void {
  served.set(world, dev);
}

/** Whether the node serves dev controls on the world's C-Chain (anvil's eth_sendUnsignedTransaction is one). */
export const servesDevMethods = (chain: CChain): boolean => served.has(chain.world);

const DEV_METHOD = /^(anvil|hardhat|evm)_/;

const GAS_LIMIT = "the C-Chain's block gas limit is set by coreth's fee rules (ACP-176), not by the node";
const LOGGING = "the mock's call log is set as it starts (--quiet)";
const INTERVAL = "the mock's clock moves only when told (evm_increaseTime, evm_setNextBlockTimestamp)";
const FINAL = "the C-Chain's accepted blocks are final: no reorg or rollback";

/**
 * anvil's and Hardhat's methods (their names in anvil's EthRequest and Hardhat's EDR) that have no meaning on the
 * C-Chain, or none the mock can give: refused with -32601 and the reason, rather than answered as if done.
 */
const REFUSED: Readonly<Record<string, string>> = {
  evm_setBlockGasLimit: GAS_LIMIT,
  anvil_setBlockGasLimit: GAS_LIMIT,
  hardhat_setPrevRandao: "the mock cannot choose a C-Chain block's prevrandao",
  anvil_setChainId:
    "the chain ID is the network's (43112 local, 43113 Fuji, 43114 Mainnet): start the mock with --network. Its EVM (Hardhat's EDR) takes a chain ID only as it is made, and a new one could not replay the chain's transactions, signed for this one (EIP-155)",
  anvil_setRpcUrl: 'the mock forks only as it starts (--fork-url)',
  anvil_setLoggingEnabled: LOGGING,
  hardhat_setLoggingEnabled: LOGGING,
  anvil_setBlockTimestampInterval: INTERVAL,
  anvil_removeBlockTimestampInterval: INTERVAL,
  anvil_reorg: FINAL,
  anvil_rollback: FINAL,
};

/** anvil's own refusal under EIP-1559 (api.rs anvil_set_min_gas_price), which every C-Chain block is. */
const MIN_GAS_PRICE = new Set(['anvil_setMinGasPrice', 'hardhat_setMinGasPrice']);

/**
 * Hardhat's refusals of a storage slot or value of the wrong size (EDR's edr_provider requests/serde.rs
 * deserialize_storage_key and deserialize_storage_value: InvalidInput, -32000), which the document's schema would
 * answer as bad params; the value's length is its hex digits halved, rounded down.
 */
function hardhatStorageRefusal(method: string, params: unknown): string | undefined {
  if (method !== 'hardhat_setStorageAt' || !Array.isArray(params)) return undefined;
  const [address, key, value] = params as unknown[];
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) return undefined;
  if (typeof key === 'string' && key.startsWith('0x') && key.length > 66)
    return `Storage key must not be greater than or equal to 2^256. Received ${key}.`;
  const length = typeof value === 'string' && value.startsWith('0x') ? Math.floor((value.length - 2) / 2) : 32;
  return length === 32
    ? undefined
    : `Storage value must be exactly 32 bytes long. Received ${value}, which is ${length} bytes long.`;
}

const endpoints = new WeakMap<CChain, Promise<Endpoint>>();

/** The generated server's endpoint of the document on the chain's handlers, made on the first dev call. */
function endpointOf(chain: CChain, dev: DevControls): Promise<Endpoint> {
  let endpoint = endpoints.get(chain);
  if (!endpoint) {
    endpoint = Promise.all([
      import('../../generated/c-chain/server/dist/index.js'),
      import('./dev-rpc-handlers.ts'),
    ]).then(([{ createCChainDevEndpoint }, { devHandlers }]) =>
      createCChainDevEndpoint(devHandlers(chain, dev), { profile: 'jsonrpc2', discover: false }),
    );
    endpoints.set(chain, endpoint);
  }
  return endpoint;
}

/**
 * The answer to a dev method, `{"result":…}` or `{"error":…}` as JSON, without id; undefined when the node serves no
 * dev controls or the method is none of anvil's or Hardhat's the document has (rpc.ts then answers as coreth does).
 */
export async function answerDevMethod(chain: CChain, method: string, params: unknown): Promise<string | undefined> {
  const dev = served.get(chain.world);
  if (!dev || !DEV_METHOD.test(method)) return undefined;
  if (MIN_GAS_PRICE.has(method))
    return JSON.stringify({ error: { code: -32602, message: `${method} is not supported when EIP-1559 is active` } });
  const refused = REFUSED[method];
  if (refused !== undefined) return JSON.stringify({ error: { code: -32601, message: `${method}: ${refused}` } });
  const storage = hardhatStorageRefusal(method, params);
  if (storage !== undefined) return JSON.stringify({ error: { code: -32000, message: storage } });
  const { cChainDevMethods } = await import('../../generated/c-chain/server/dist/index.js');
  if (!cChainDevMethods.some((spec) => spec.name === method)) return undefined;
  const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) });
  const reply = await (await endpointOf(chain, dev)).answer(Buffer.from(call), { headers: {} });
  const body = typeof reply.body === 'string' ? reply.body : Buffer.from(reply.body).toString('utf8');
  const { result, error } = JSON.parse(body) as { result?: unknown; error?: { message: string; data?: unknown } };
  if (error === undefined) return JSON.stringify({ result: result ?? null });
  // The violations in the message too: clients show the message, seldom the data.
  if (error.message === 'Invalid params' && Array.isArray(error.data))
    error.message += `: ${error.data.map((violation: { message: string }) => violation.message).join('; ')}`;
  return JSON.stringify({ error });
}
