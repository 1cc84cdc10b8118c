/**
 * eth_call's fourth argument, coreth v1.14.2's BlockOverrides (internal/ethapi/api.go: number, difficulty, time,
 * gasLimit, coinbase, baseFee, blobBaseFee; any other field ignored, as encoding/json ignores it), applied to the
 * call's block context. The engine's eth_call has no such argument, so the call runs on the engine's next block made
 * to carry the overridden fields (empty blocks mined up to the number, then its time, coinbase, base fee, gas limit
 * and prevrandao set), at `pending`, with the state override given to the engine as it is; all of it inside an engine
 * snapshot reverted after the call, so the chain and its pending block stay as they were.
 *
 * An older block or a time before the last block's, without a number or blob base fee overridden, runs on a second
 * engine forked at the block named, which reads that block's header with the overridden fields (callOnHeader): the
 * block context coreth's Apply makes, its NUMBER that block's. coreth v1.14.2 refuses no override (Apply sets every
 * field given); what the engine cannot build is refused before anything changes, in one message of the mock's
 * (unbuildable): a number at an older block or not past the last (EDR 0.22.0 refuses a block before its last, and
 * panics on a fork block read with another number), a blob base fee, or a value past the engine's bounds
 * (engineLimit). A call at the
 * last accepted block without a `number` runs at the next height (the engine has no block context at a height it
 * already built): NUMBER and BLOCKHASH read one more than coreth's would. BASEFEE reads 0, as coreth's does for a call
 * paying no fee (libevm core/vm NewEVM zeroes it under NoBaseFee); the engine's reads 0 for one paying a fee too:
 * EDR 0.22.0 runs eth_call, eth_estimateGas and debug_traceCall on a BlockEnvWithZeroBaseFee (data/call.rs), with no
 * option to do otherwise. GASPRICE reads ToMessage's gas price, given to the engine as the call's gasPrice
 * (./coreth-reads.ts).
 */
import { engineParams } from './block-hashes.ts';
import { engineLookup } from './block-reads.ts';
import { runCall, runCallOnHeader } from './call-run.ts';
import type { CChain } from './evm.ts';
import { gethAnswer } from './geth-errors.ts';
import { RPC_GAS_CAP, withCallGas } from './transaction-args.ts';
import { address, big, type FieldDecoder, refusedStruct, uint64 } from './transaction-args.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/** BlockOverrides' fields by lower-case JSON name: Go's field name (untagged) and its type's decoder. */
const FIELDS: Record<string, [string, FieldDecoder]> = {
  number: ['Number', big],
  difficulty: ['Difficulty', big],
  time: ['Time', uint64],
  gaslimit: ['GasLimit', uint64],
  coinbase: ['Coinbase', address],
  basefee: ['BaseFee', big],
  blobbasefee: ['BlobBaseFee', big],
};

/** The tags coreth reads as the last accepted block. */
const LATEST = new Set(['latest', 'accepted', 'safe', 'finalized']);

type Overrides = Partial<Record<keyof typeof FIELDS, string>>;

/** The overrides set (lower-case names to their hex values); nulls are Go's nil. */
function overridesOf(value: object): Overrides {
  const set: Overrides = {};
  for (const [key, field] of Object.entries(value)) {
    const name = key.toLowerCase();
    if (name in FIELDS && typeof field === 'string') set[name] = field;
  }
  return set;
}

/** Whether eth_call's params reach a fourth argument, which the engine's eth_call does not take. */
export const hasBlockOverrides = (params: unknown[]) => params.length > 3;

/**
 * geth's -32602 text for eth_call's fourth argument and after (BlockOverrides' decoder, then parsePositionalArguments'
 * count), or undefined.
 */
export function refusedBlockOverrides(params: unknown[]): string | undefined {
  const refused = params[3] === null ? undefined : refusedStruct(3, 'BlockOverrides', FIELDS, params[3]);
  return refused ?? (params.length > 4 ? 'too many arguments, want at most 4' : undefined);
}

const hex = (value: bigint) => `0x${value.toString(16)}`;
const word = (value: bigint) => `0x${(value & (2n ** 256n - 1n)).toString(16).padStart(64, '0')}`;
const refusal = (message: string) => JSON.stringify({ error: { code: -32000, message } });

interface EngineBlock {
  hash: string;
  number: string;
  timestamp: string;
  baseFeePerGas: string;
  miner: string;
  gasLimit: string;
  mixHash: string;
}

/** Whether `at` names the last accepted block (a tag, its number or hash, or nothing), `pending`, or another block. */
async function blockKind(
  chain: CChain,
  provider: Provider,
  at: unknown,
  latest: EngineBlock,
): Promise<'latest' | 'pending' | 'other'> {
  if (at === undefined || at === null || (typeof at === 'string' && LATEST.has(at))) return 'latest';
  if (at === 'pending') return 'pending';
  const lookup = engineLookup(chain, at);
  const named = lookup && ((await chain.call(provider, lookup[0], [lookup[1], false])) as EngineBlock | null);
  return named?.hash === latest.hash ? 'latest' : 'other';
}

/** The engine's bounds (its blocks' numbers and times are 64-bit, a time past 2^62 breaks it, a gas limit is not 0). */
const MAX_NUMBER = 2n ** 64n - 1n;
const MAX_TIME = 2n ** 62n - 1n;
const MAX_BASE_FEE = 2n ** 128n - 1n;

/**
 * What of the overrides the engine cannot build a block with, named after "the block these overrides ask for: ". The
 * engine builds a call's block only on its last one: never at an earlier time or height, and it has no blob base fee
 * to set (it works one out from the parent's excess blob gas).
 */
function engineLimit(overrides: Overrides, next: bigint, lastTime: bigint): string | undefined {
  const { number, time, gaslimit, basefee, blobbasefee } = overrides;
  if (blobbasefee !== undefined) return 'a blob base fee';
  if (number !== undefined && BigInt(number) < next) return `a height before ${hex(next)}`;
  if (number !== undefined && BigInt(number) > MAX_NUMBER) return `a height past ${hex(MAX_NUMBER)}`;
  if (time !== undefined && BigInt(time) < lastTime) return `a time before its last block's (${hex(lastTime)})`;
  if (time !== undefined && BigInt(time) > MAX_TIME) return `a time past ${hex(MAX_TIME)}`;
  if (gaslimit !== undefined && BigInt(gaslimit) === 0n) return 'a gas limit of 0';
  if (basefee !== undefined && BigInt(basefee) > MAX_BASE_FEE) return `a base fee past ${hex(MAX_BASE_FEE)}`;
  return undefined;
}

/** The one refusal of overrides the engine cannot build a block with (`what`: engineLimit's words). */
const unbuildable = (what: string) => refusal(`the mock cannot build the block these overrides ask for: ${what}`);

/**
 * The call run at the block it names, that block's header read with the overridden fields (./call-run.ts
 * runCallOnHeader: on a second engine), which is the block context coreth's Apply makes of them at any block and any
 * time; undefined for what that cannot build (a number or a blob base fee overridden, the engine's bounds).
 */
async function callOnHeader(chain: CChain, provider: Provider, params: unknown[], overrides: Overrides) {
  const [args, at, stateOverride] = params;
  const { number, blobbasefee, time, coinbase, gaslimit, difficulty, basefee } = overrides;
  if (number !== undefined || blobbasefee !== undefined || engineLimit(overrides, 0n, 0n) !== undefined)
    return undefined;
  const header: Record<string, string> = {
    ...(time === undefined ? {} : { timestamp: hex(BigInt(time)) }),
    ...(coinbase === undefined ? {} : { miner: coinbase.toLowerCase() }),
    ...(gaslimit === undefined ? {} : { gasLimit: hex(BigInt(gaslimit)) }),
    // PREVRANDAO reads the block context's Difficulty (core/evm.go OverrideNewEVMArgs), the engine its mixHash.
    ...(difficulty === undefined ? {} : { mixHash: word(BigInt(difficulty)), difficulty: hex(BigInt(difficulty)) }),
    ...(basefee === undefined ? {} : { baseFeePerGas: hex(BigInt(basefee)) }),
  };
  const ran = withCallGas('eth_call', [args, at ?? 'latest']) as unknown[];
  const call = (engineParams(chain, 'eth_call', ran) as unknown[]).concat(
    stateOverride === undefined || stateOverride === null ? [] : [stateOverride],
  );
  const answer = await runCallOnHeader(chain, provider, call, header);
  return answer === undefined ? undefined : gethAnswer('eth_call', answer);
}

/**
 * eth_call's answer (`{"result":…}` or `{"error":…}`) to `params` with block overrides, on the engine inside one
 * queued op. The block the params name has been checked to be known (./coreth-reads.ts).
 */
export async function callWithBlockOverrides(chain: CChain, provider: Provider, params: unknown[]): Promise<string> {
  const [args, at, stateOverride, blockOverrides] = params;
  const overrides = overridesOf(blockOverrides ?? {});
  const withState = stateOverride === undefined || stateOverride === null ? [] : [stateOverride];
  if (Object.keys(overrides).length === 0) {
    // BlockOverrides.Apply of nothing: the call as the engine runs it.
    const ran = withCallGas('eth_call', [args, at ?? 'latest']) as unknown[];
    const call = (engineParams(chain, 'eth_call', ran) as unknown[]).concat(withState);
    return gethAnswer('eth_call', await runCall(chain, provider, call), ran);
  }
  const latest = (await chain.call(provider, 'eth_getBlockByNumber', ['latest', false])) as EngineBlock;
  const kind = await blockKind(chain, provider, at, latest);
  const earlier = overrides.time !== undefined && BigInt(overrides.time) < BigInt(latest.timestamp);
  if (kind !== 'pending' && (kind === 'other' || earlier)) {
    const onHeader = await callOnHeader(chain, provider, params, overrides);
    if (onHeader !== undefined) return onHeader;
  }
  if (kind === 'other') return unbuildable('a block other than the last accepted one or pending');
  const limit = engineLimit(overrides, BigInt(latest.number) + 1n, BigInt(latest.timestamp));
  if (limit !== undefined) return unbuildable(limit);
  const next = BigInt(latest.number) + 1n;
  const number = overrides.number === undefined ? next : BigInt(overrides.number);
  // Unless overridden, the fields are the last block's (DoCall copies its header), but for `pending`'s height, time
  // and base fee (EstimateBaseFee); the engine's pending block has its own.
  const pending = kind === 'pending';
  const time = overrides.time ?? (pending ? undefined : latest.timestamp);
  const baseFee = overrides.basefee ?? (pending ? hex(chain.nextBaseFee()) : latest.baseFeePerGas);
  // coreth's PREVRANDAO reads the block context's Difficulty (core/evm.go OverrideNewEVMArgs); the engine's reading
  // of the last block's is its mixHash.
  const prevRandao = overrides.difficulty === undefined ? latest.mixHash : word(BigInt(overrides.difficulty));
  // The blocks mined up to the number take the time first, as the block after them does.
  const setTime: Array<[string, unknown[]]> =
    time === undefined ? [] : [['evm_setNextBlockTimestamp', [hex(BigInt(time))]]];
  const edits: Array<[string, unknown[]]> = [
    ...(number > next ? [...setTime, ['hardhat_mine', [hex(number - next), '0x0']] as [string, unknown[]]] : []),
    ...setTime,
    ['hardhat_setCoinbase', [overrides.coinbase ?? latest.miner]],
    ['hardhat_setNextBlockBaseFeePerGas', [baseFee]],
    ['evm_setBlockGasLimit', [overrides.gaslimit ?? latest.gasLimit]],
    ['hardhat_setPrevRandao', [prevRandao]],
  ];
  const call = { ...(args as object) } as Record<string, unknown>;
  // ToMessage's gas: the call's, at most the RPC gas cap, which a block's gas limit does not change.
  const gas = typeof call.gas === 'string' ? BigInt(call.gas) : RPC_GAS_CAP;
  call.gas = hex(gas < RPC_GAS_CAP ? gas : RPC_GAS_CAP);
  // The edits are in the engine until the revert: no other op may run meanwhile, even while a second engine runs.
  return chain.hold(async () => {
    const snapshot = (await chain.call(provider, 'evm_snapshot')) as string;
    try {
      await chain.calls(provider, edits);
      // The bounded run (./call-run.ts) on the block built, within coreth's deadline from the call's arrival.
      return gethAnswer('eth_call', await runCall(chain, provider, [call, 'pending', ...withState]));
    } finally {
      await chain.call(provider, 'evm_revert', [snapshot]);
    }
  });
}
