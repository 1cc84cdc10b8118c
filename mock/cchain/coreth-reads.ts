/**
 * What coreth v1.14.2 answers with its own code where the engine would answer otherwise: the "web3" and "net" APIs
 * (enabled by default: plugin/evm/config defaultEnabledAPIs), blocks past the last accepted one or named by a hash the
 * chain does not have (eth/api_backend.go, allow-unfinalized-queries off by default), eth_sign without a key,
 * eth_coinbase, and gasestimator.Estimate's plain-transfer short circuit.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { servedNodeVersion } from '../state.ts';
import { createAccessList } from './access-list.ts';
import { enginePriced, messageRefusal, paysFee, toMessage } from './access-list-args.ts';
import { callWithBlockOverrides, hasBlockOverrides, refusedBlockOverrides } from './block-overrides.ts';
import { BLOCK_NUMBER_OR_HASH, engineParams } from './block-hashes.ts';
import { runEstimate } from './call-run.ts';
import { engineLookup } from './block-reads.ts';
import type { CChain } from './evm.ts';
import { EvmError } from './evm.ts';
import { appliedOverride, withOverride } from './estimate-override.ts';
import { gethAnswer } from './geth-errors.ts';
import { withoutPool } from './pool-hidden.ts';
import { bothStateAndDiff } from './state-override.ts';
import { ethChecksum } from '../engine/dev.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/** params.TxGas. */
const TX_GAS = 21_000n;

/** crypto.Keccak256 of `web3_sha3`'s one hexutil.Bytes (its params refused, as for every method, from the spec). */
function sha3([data]: [string]): string {
  return `0x${Buffer.from(keccak_256(Buffer.from(data.slice(2), 'hex'))).toString('hex')}`;
}

/** node/api.go's web3API and internal/ethapi's NetAPI (net_version is the engine's, which answers the same). */
export function web3AndNetMethods(chain: CChain): Record<string, (params: unknown) => Promise<unknown>> {
  return {
    // node.Config's CorethVersion: version.Current.Semantic() (plugin/evm/vm.go), what info.getNodeVersion says the
    // evm is (coreth's own version before the graft).
    web3_clientVersion: async () => servedNodeVersion(chain.release).vmVersions.evm,
    web3_sha3: async (params) => sha3(params as [string]),
    // NetAPI.Listening: "always listening"; PeerCount: a hard-coded hexutil.Uint(0).
    net_listening: async () => true,
    net_peerCount: async () => '0x0',
    // RPCService.Modules, which rpc.NewServer registers on every server: the default eth-apis' namespaces and its own.
    rpc_modules: async (params) => {
      if (params !== undefined && params !== null && !Array.isArray(params))
        throw new EvmError(-32602, 'non-array args');
      if (Array.isArray(params) && params.length > 0) throw new EvmError(-32602, 'too many arguments, want at most 0');
      return { eth: '1.0', net: '1.0', rpc: '1.0', web3: '1.0' };
    },
  };
}

/** The argument at which each block read takes its block number (BlockByNumber: a number only). */
const BLOCK_NUMBER_ARGUMENT: Record<string, number> = { eth_getBlockByNumber: 0, eth_getHeaderByNumber: 0 };

const HASH_NOT_FOUND = 'header for hash not found';

/** The hash an EIP-1898 block param names, as Go's %s writes a common.Hash. */
function hashOf(at: unknown): string {
  const hash =
    typeof at === 'object' && at !== null
      ? Object.entries(at).find(([key]) => key.toLowerCase() === 'blockhash')?.[1]
      : at;
  return String(hash).toLowerCase();
}

/**
 * HeaderByNumber/BlockByNumber's ErrUnfinalizedData for a number past the last accepted block (every block the
 * engine has is accepted), and HeaderByHash's nil (unknown, or not canonical at its height) as
 * StateAndHeaderByNumberOrHash's "header for hash not found". Undefined when the block is one of this chain's, or a
 * tag (read as the last accepted block).
 */
async function blockRefusal(
  chain: CChain,
  provider: Provider,
  at: unknown,
  byHash: boolean,
): Promise<string | undefined> {
  const lookup = byHash ? engineLookup(chain, at) : ['eth_getBlockByNumber', at];
  if (!lookup) return undefined;
  const [method, param] = lookup;
  if (method === 'eth_getBlockByHash') {
    const block = (await chain.call(provider, method, [param, false])) as { hash: string; number: string } | null;
    const canonical =
      block && ((await chain.call(provider, 'eth_getBlockByNumber', [block.number, false])) as { hash: string } | null);
    return canonical?.hash === block?.hash && block ? undefined : HASH_NOT_FOUND;
  }
  if (typeof param !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(param)) return undefined;
  const latest = BigInt((await chain.call(provider, 'eth_blockNumber')) as string);
  return BigInt(param) > latest ? 'cannot query unfinalized data' : undefined;
}

type Override = { balance?: unknown; code?: unknown };

/** A state override's entry for `address` (Go decodes the keys as common.Address, whatever their case). */
const overrideOf = (overrides: unknown, address: string): Override | undefined =>
  typeof overrides === 'object' && overrides !== null
    ? (Object.entries(overrides).find(([key]) => key.toLowerCase() === address.toLowerCase())?.[1] as Override)
    : undefined;

const quantity = (value: unknown) => (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value) ? BigInt(value) : 0n);

/**
 * gasestimator.Estimate's short circuit: a call without data to an address without code (after the state override)
 * that succeeds with params.TxGas of gas is estimated at exactly that. The engine's eth_call does not check that the
 * sender can pay, which core.ApplyMessage does (buyGas, CanTransfer): that is checked here.
 */
async function plainTransfer(chain: CChain, provider: Provider, params: unknown[]): Promise<boolean> {
  const [args, block = 'latest', overrides] = (engineParams(chain, 'eth_estimateGas', params) ?? params) as unknown[];
  const message = toMessage(args);
  if (typeof message === 'string' || message.to === undefined || message.data !== '0x') return false;
  const target = overrideOf(overrides, message.to);
  const code =
    typeof target?.code === 'string' ? target.code : await chain.call(provider, 'eth_getCode', [message.to, block]);
  if (code !== '0x') return false;
  const balance = await balanceOf(chain, provider, message.from, block, overrides);
  if (balance < message.value + TX_GAS * (message.maxFeePerGas ?? message.gasPrice ?? 0n)) return false;
  try {
    const call = [{ ...(args as object), gas: `0x${TX_GAS.toString(16)}` }, block, ...(overrides ? [overrides] : [])];
    await chain.call(provider, 'eth_call', call);
    return true;
  } catch (error) {
    if (error instanceof EvmError) return false;
    throw error;
  }
}

/** The balance `from` has at `block` under the state override. */
async function balanceOf(chain: CChain, provider: Provider, from: string, block: unknown, overrides: unknown) {
  const sender = overrideOf(overrides, from);
  if (sender?.balance !== undefined) return quantity(sender.balance);
  return quantity(await chain.call(provider, 'eth_getBalance', [from, block]));
}

/**
 * DoCall's refusals before the EVM runs, which the engine's eth_call does not make or words otherwise: ToMessage's,
 * and ApplyMessage's of its message (./access-list-args.ts messageRefusal: the fee cap against the base fee, the
 * balance against gas * fee cap + value, the intrinsic gas) in DoCall's "err: %w (supplied gas %d)". Else the base fee
 * the call runs at, when it pays a fee: the block override's, the named block's, or `pending`'s estimate (DoCall's
 * EstimateBaseFee).
 */
async function checkCall(
  chain: CChain,
  provider: Provider,
  params: unknown[],
): Promise<{ refusal?: string; baseFee?: bigint }> {
  const [args, at = 'latest', overrides, blockOverrides] = params;
  const message = toMessage(args);
  if (typeof message === 'string') return { refusal: message };
  const block = (engineParams(chain, 'eth_call', params) as unknown[])[1] ?? 'latest';
  const blockBaseFee = async () => {
    const overridden = Object.entries(blockOverrides ?? {}).find(([key]) => key.toLowerCase() === 'basefee')?.[1];
    if (typeof overridden === 'string') return BigInt(overridden);
    if (at === 'pending') return chain.nextBaseFee();
    const [lookup, param] = engineLookup(chain, at) ?? ['eth_getBlockByNumber', 'latest'];
    return BigInt(((await chain.call(provider, lookup, [param, false])) as { baseFeePerGas: string }).baseFeePerGas);
  };
  const balance = await balanceOf(chain, provider, message.from, block, overrides);
  const baseFee = paysFee(message) ? await blockBaseFee() : undefined;
  const refused = messageRefusal(message, message.accessList ?? [], baseFee ?? 0n, balance);
  return refused === undefined ? { baseFee } : { refusal: `err: ${refused} (supplied gas ${message.gas})` };
}

/**
 * gasestimator.Estimate's refusal of a value its sender cannot pay: with a fee cap set, a value not below the balance
 * as ErrInsufficientFundsForTransfer (eth/gasestimator/gasestimator.go:91); without, buyGas' text of the value alone,
 * which a run at any gas limit meets first.
 */
async function unfundedEstimate(chain: CChain, provider: Provider, params: unknown[]): Promise<string | undefined> {
  const [args, block = 'latest', overrides] = (engineParams(chain, 'eth_estimateGas', params) ?? params) as unknown[];
  const message = toMessage(args);
  if (typeof message === 'string' || message.value === 0n) return undefined;
  const balance = await balanceOf(chain, provider, message.from, block, overrides);
  if (paysFee(message)) return message.value >= balance ? 'insufficient funds for transfer' : undefined;
  const from = ethChecksum(message.from.slice(2));
  const short = `insufficient funds for gas * price + value: address ${from} have ${balance} want ${message.value}`;
  return message.value > balance ? short : undefined;
}

/** Whether an eth_call's args may meet checkCall's refusals: they set their gas, send value or pay a fee. */
const checkedCall = (args: unknown) =>
  typeof args === 'object' &&
  args !== null &&
  Object.entries(args).some(
    ([key, value]) =>
      value !== null &&
      (/^gas$/i.test(key) ||
        (/^(value|gasprice|maxfeepergas|maxpriorityfeepergas)$/i.test(key) && quantity(value) !== 0n)),
  );

/**
 * coreth's answer (`{"result":…}` or `{"error":…}`) to a call it answers before the engine would, or undefined to let
 * the call go on. eth_sign: TransactionAPI.Sign's AccountManager().Find, and the node's keystore holds no key.
 */
export async function corethFirst(chain: CChain, method: string, params: unknown): Promise<string | undefined> {
  if (method === 'eth_sign') return '{"error":{"code":-32000,"message":"unknown account"}}';
  // eth.EthereumAPI.Coinbase: the etherbase the VM sets (plugin/evm/vm.go SetEtherbase(constants.BlackholeAddr)), or
  // the one anvil_setCoinbase chose, as anvil's eth_coinbase answers it.
  if (method === 'eth_coinbase') return `{"result":"0x${chain.coinbase}"}`;
  const args = Array.isArray(params) ? params : [];
  const byNumber = BLOCK_NUMBER_ARGUMENT[method];
  const byState = BLOCK_NUMBER_OR_HASH[method];
  if (byNumber === undefined && byState === undefined) return undefined;
  const at = args[(byNumber ?? byState)!];
  // A tag, or no block, is the last accepted block: nothing to look up.
  const named = at !== undefined && at !== null && !(typeof at === 'string' && !at.startsWith('0x'));
  const overridden = method === 'eth_call' && hasBlockOverrides(args);
  const refused = overridden ? refusedBlockOverrides(args) : undefined;
  if (refused !== undefined) return JSON.stringify({ error: { code: -32602, message: refused } });
  const checked = method === 'eth_call' && checkedCall(args[0]);
  // StateOverride.Apply, after the block's lookup.
  const both = method === 'eth_call' || method === 'eth_estimateGas' ? bothStateAndDiff(args) : undefined;
  if (!named && !overridden && !checked && !both && method !== 'eth_estimateGas' && method !== 'eth_createAccessList')
    return undefined;
  return chain.run(async (provider) => {
    let refusal = named ? await blockRefusal(chain, provider, at, byState !== undefined) : undefined;
    refusal ??= both;
    // GetProof looks the hash up first (api_extra.go stateQueryBlockNumberAllowed), in its own words.
    if (method === 'eth_getProof' && refusal === HASH_NOT_FOUND)
      refusal = `historical proof query not allowed: block from hash ${hashOf(at)} doesn't exist`;
    let baseFee: bigint | undefined;
    if (refusal === undefined && method === 'eth_call') ({ refusal, baseFee } = await checkCall(chain, provider, args));
    if (refusal === undefined && method === 'eth_estimateGas') refusal = await unfundedEstimate(chain, provider, args);
    if (refusal !== undefined) return JSON.stringify({ error: { code: -32000, message: refusal } });
    if (method === 'eth_createAccessList') return createAccessList(chain, provider, args);
    // GASPRICE reads ToMessage's gas price, which the engine's call works out at a base fee of 0.
    const priced = baseFee === undefined ? undefined : enginePriced(args[0], baseFee);
    if (overridden || priced)
      // The blocks built for the overrides would hold the pool's transactions.
      return withoutPool(chain, provider, () =>
        callWithBlockOverrides(chain, provider, priced ? [priced, ...args.slice(1)] : args),
      );
    if (method !== 'eth_estimateGas') return undefined;
    const estimate = async (params: unknown[]) =>
      (await plainTransfer(chain, provider, params))
        ? `{"result":"0x${TX_GAS.toString(16)}"}`
        : runEstimate(chain, provider, (engineParams(chain, method, params) ?? params) as unknown[]);
    if (args[2] === undefined || args[2] === null || !appliedOverride(args))
      return gethAnswer(method, await estimate(args));
    return gethAnswer(method, await withOverride(chain, provider, args, estimate));
  });
}
