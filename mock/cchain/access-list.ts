/**
 * eth_createAccessList as coreth v1.14.2 answers it (internal/ethapi BlockChainAPI.CreateAccessList, AccessList): the
 * transaction run with geth's access-list tracer (libevm eth/tracers/logger/access_list_tracer.go), then again with
 * the list it found, until the list stays the same; the answer is that list, the gas the last run used and its EVM
 * error. Each run is the engine's debug_traceCall with its prestateTracer (the accounts and slots loaded,
 * ./access-list-tracer.ts) and callTracer (the frames, their gas and errors); a step trace only words the rare halts
 * whose geth text names a step (a stack check's counts, an undefined opcode).
 */
import {
  type AccessTuple,
  type FilledArgs,
  createAddress,
  effectiveGasPrice,
  messageGas,
  messageRefusal,
  setDefaults,
  transactionHash,
} from './access-list-args.ts';
import {
  AccessSet,
  type CallFrame,
  collect,
  framesOf,
  type Prestate,
  readsGas,
  type Trace,
} from './access-list-tracer.ts';
import { engineLookup } from './block-reads.ts';
import { type CChain, EvmError } from './evm.ts';
import { ruleActive } from './rules.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

const precompile = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

/**
 * vm.ActivePrecompiles under coreth's rules at `time` (params/hooks_libevm.go): Ethereum's (Cancun's from Etna,
 * Shanghai's before), and Banff's native-asset addresses, with P-256 verification from Granite.
 */
function activePrecompiles(chain: CChain, time: bigint): string[] {
  const ethereum = Array.from({ length: ruleActive(chain.world, chain.release, 'etna', time) ? 10 : 9 }, (_, i) =>
    precompile(i + 1),
  );
  const nativeAsset = ['0', '1', '2'].map((n) => `0x01${'0'.repeat(37)}${n}`);
  const granite = ruleActive(chain.world, chain.release, 'granite', time) ? [precompile(0x100)] : [];
  return [...ethereum, ...nativeAsset, ...granite];
}

/** geth's vm errors by the engine's name of the halt (core/vm/errors.go). */
export const VM_ERRORS: Record<string, string> = {
  OutOfGas: 'out of gas',
  MemoryOOG: 'out of gas',
  MemoryLimitOOG: 'out of gas',
  InvalidOperandOOG: 'out of gas',
  PrecompileOOG: 'out of gas',
  InvalidFEOpcode: 'invalid opcode: INVALID',
  InvalidJump: 'invalid jump destination',
  OutOfOffset: 'return data out of bounds',
  StateChangeDuringStaticCall: 'write protection',
  CallNotAllowedInsideStatic: 'write protection',
  CreateContractSizeLimit: 'max code size exceeded',
  CreateContractStartingWithEF: 'invalid code: must not begin with 0xef',
  CallTooDeep: 'max call depth exceeded',
  CreateCollision: 'contract address collision',
  NonceOverflow: 'nonce uint64 overflow',
};

/** The operands each opcode pops (core/vm/jump_table.go's minStack), by the engine's names, for the short ones. */
const POPS: Record<string, number> = Object.fromEntries(
  Object.entries({
    1: 'ISZERO NOT BALANCE CALLDATALOAD EXTCODESIZE EXTCODEHASH BLOCKHASH BLOBHASH POP MLOAD SLOAD TLOAD JUMP SELFDESTRUCT',
    2: 'ADD MUL SUB DIV SDIV MOD SMOD EXP SIGNEXTEND LT GT SLT SGT EQ AND OR XOR BYTE SHL SHR SAR SHA3 KECCAK256 MSTORE MSTORE8 SSTORE TSTORE JUMPI RETURN REVERT LOG0',
    3: 'ADDMOD MULMOD CALLDATACOPY CODECOPY RETURNDATACOPY MCOPY LOG1 CREATE',
    4: 'EXTCODECOPY LOG2 CREATE2',
    5: 'LOG3',
    6: 'LOG4 DELEGATECALL STATICCALL',
    7: 'CALL CALLCODE',
  }).flatMap(([count, names]) => names.split(' ').map((name) => [name, Number(count)])),
);
const pops = (op: string) => POPS[op] ?? (/^DUP(\d+)$/.test(op) ? Number(op.slice(3)) : Number(op.slice(4)) + 1);

/** The run's vm error text (ExecutionResult.Err), from the outermost frame's last step; undefined when it succeeded. */
export async function vmError(trace: Trace, code: () => Promise<string>, engineError: () => Promise<string>) {
  if (!trace.failed) return undefined;
  const last = trace.structLogs.filter((log) => log.depth === 1).at(-1);
  const halt = last?.error?.match(/^Some\((\w+)/)?.[1];
  if (last && halt === undefined && last.op === 'REVERT') return 'execution reverted';
  if (halt === 'OpcodeNotFound') {
    const opcode = Buffer.from((await code()).slice(2), 'hex')[last!.pc] ?? 0;
    return `invalid opcode: opcode 0x${opcode.toString(16)} not defined`;
  }
  const stack = last?.stack?.length ?? 0;
  if (halt === 'StackUnderflow') return `stack underflow (${stack} <=> ${pops(last!.op)})`;
  // Every opcode's maxStack is 1024 + pops - pushes, and those that can overflow push one more than they pop.
  if (halt === 'StackOverflow') return `stack limit reached ${stack} (1023)`;
  // A halt that no step shows (a creation's code deposit): the engine's own words.
  return (halt && VM_ERRORS[halt]) ?? (await engineError());
}

/**
 * The most gas a run is traced with. The engine's tracers record each step inside the engine (a step may cost 2 gas):
 * measured on 2-gas steps at a load of 20 on 2 cores, a run of 1,000,000 gas takes ~6 s and ~150 MB at its peak, where
 * the step trace took ~14 s and ~480 MB (it was held to 300,000 gas). A run of coreth's 50,000,000 gas would hold the
 * chain's queue for minutes. A run that needs more (a frame out of gas) or may take another course with more (code that
 * reads GAS but to pass it to a call) is refused; one that fits is run again with all its gas only when a frame's halt
 * makes its gas use depend on its limit.
 */
const TRACE_GAS = 1_000_000n;
/** A step trace (some 30 µs and 800 bytes a step) is made only to word a halt, within this gas. */
export const STEP_TRACE_GAS = 300_000n;

/** geth's texts of the halts the engine's callTracer words as geth does. */
const GETH_TEXTS = new Set(['execution reverted', ...Object.values(VM_ERRORS), 'invalid opcode: INVALID']);

const quantity = (value: bigint) => `0x${value.toString(16)}`;
const failure = (message: string) => JSON.stringify({ error: { code: -32000, message } });

/**
 * The engine's call of the message: TransactionArgs as the engine takes them, paying ToMessage's gas price at the
 * block's base fee (what GASPRICE reads).
 */
function engineCall(
  args: FilledArgs,
  accessList: AccessTuple[],
  gas: bigint,
  baseFee: bigint,
): Record<string, unknown> {
  const gasPrice = args.gasPrice ?? effectiveGasPrice(args, baseFee);
  return {
    from: args.from,
    ...(args.to ? { to: args.to } : {}),
    gas: quantity(gas),
    ...(gasPrice !== undefined ? { gasPrice: quantity(gasPrice) } : {}),
    value: quantity(args.value),
    data: args.data,
    accessList,
  };
}

/** eth_createAccessList's answer (`{"result":…}` or `{"error":…}`) to `params` (the block named, when one is, known). */
export async function createAccessList(chain: CChain, provider: Provider, params: unknown[]): Promise<string> {
  const [txArgs, at = 'latest'] = params;
  const [lookup, block] = engineLookup(chain, at) ?? ['eth_getBlockByNumber', 'latest'];
  const header = (await chain.call(provider, lookup, [block, false])) as {
    timestamp: string;
    baseFeePerGas: string;
    miner: string;
  };
  // The coinbase of the block the call runs on (its header's, as DoCall's context has it), which every run loads to pay.
  const coinbase = header.miner;
  const head = (await chain.call(provider, 'eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas: string };
  const args = await setDefaults(txArgs, {
    headBaseFee: BigInt(head.baseFeePerGas),
    tip: () => chain.suggestion().tip,
    poolNonce: async (from) =>
      BigInt((await chain.call(provider, 'eth_getTransactionCount', [from, 'pending'])) as string),
    chainId: BigInt(chain.genesis.chainID),
  });
  if (typeof args === 'string') return failure(args);
  const state = lookup === 'eth_getBlockByHash' ? { blockHash: block } : block;
  const to = args.to ?? createAddress(args.from, args.nonce);
  const excluded = new Set([args.from, to, ...activePrecompiles(chain, BigInt(header.timestamp))]);
  const balance = BigInt((await chain.call(provider, 'eth_getBalance', [args.from, state])) as string);
  const gas = messageGas(args);
  const budget = gas < TRACE_GAS ? gas : TRACE_GAS;
  const baseFee = BigInt(header.baseFeePerGas);
  let previous = AccessSet.from(args.accessList ?? [], excluded);
  for (;;) {
    const accessList = previous.list();
    const refused = messageRefusal(args, accessList, baseFee, balance);
    if (refused !== undefined)
      return failure(`failed to apply transaction: ${transactionHash(args, accessList)} err: ${refused}`);
    const run = (limit: bigint, tracer: object) =>
      chain.call(provider, 'debug_traceCall', [engineCall(args, accessList, limit, baseFee), state, tracer]);
    const top = (await run(budget, CALLS)) as CallFrame;
    const frames = framesOf(top);
    const needsMore = () =>
      failure(`the mock traces an access list within ${TRACE_GAS} gas, and this call may need more`);
    if (budget < gas && frames.some((frame) => frame.error === 'out of gas')) return needsMore();
    const prestate = (await run(budget, PRESTATE)) as Prestate;
    if (budget < gas && readsGasIn(frames, prestate, args.to ? undefined : args.data)) return needsMore();
    const created = frames.filter((frame) => frame.type.startsWith('CREATE') && frame.to).map((frame) => frame.to!);
    const tracer = AccessSet.from(accessList, excluded);
    // The coinbase is named when a frame calls it (a BALANCE or EXTCODE* of it cannot be told from the engine's load).
    const called = frames.some((frame, i) => i > 0 && frame.to === coinbase);
    collect(prestate, new Set([...created, ...(called ? [] : [coinbase])]), tracer);
    if (!tracer.equal(previous)) {
      previous = tracer;
      continue;
    }
    const last =
      budget < gas && frames.some((frame) => frame.error !== undefined) ? ((await run(gas, CALLS)) as CallFrame) : top;
    // The halt's geth text from a step trace (within STEP_TRACE_GAS), or the callTracer's where that does not reach it.
    const stepError = async () =>
      (await vmError(
        (await run(gas < STEP_TRACE_GAS ? gas : STEP_TRACE_GAS, STEPS)) as Trace,
        async () => (args.to ? ((await chain.call(provider, 'eth_getCode', [to, state])) as string) : args.data),
        () =>
          chain.call(provider, 'eth_call', [engineCall(args, accessList, gas, baseFee), state]).then(
            () => 'execution failed',
            (error: unknown) => (error instanceof EvmError ? error.message : String(error)),
          ),
      )) ?? last.error!;
    const error = last.error === undefined || GETH_TEXTS.has(last.error) ? last.error : await stepError();
    const result = { accessList, ...(error === undefined ? {} : { error }), gasUsed: last.gasUsed };
    return JSON.stringify({ result });
  }
}

const PRESTATE = { tracer: 'prestateTracer' };
const CALLS = { tracer: 'callTracer' };
export const STEPS = { disableStorage: true, disableMemory: true };

/** Whether code that ran (an account's, a creation's) reads GAS: a run within TRACE_GAS may go otherwise with more. */
function readsGasIn(frames: readonly CallFrame[], prestate: Prestate, creation: string | undefined): boolean {
  const codes = [
    ...Object.values(prestate).map((account) => account.code ?? '0x'),
    ...frames.filter((frame) => frame.type.startsWith('CREATE')).map((frame) => frame.input),
    creation ?? '0x',
  ];
  return codes.some(readsGas);
}
