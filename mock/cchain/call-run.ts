/**
 * eth_call and eth_estimateGas run on the engine as coreth bounds them: DoCall under RPCEVMTimeout (5 s,
 * eth/ethconfig/config.go: "execution aborted (timeout = 5s)"), gasestimator.Estimate's first run at its allowance
 * ("gas required exceeds allowance (%d)"), and a halt answered -32000 in geth's words (core/vm/errors.go), no data.
 *
 * Why bounded here: the engine (EDR 0.22) runs an eth_call with its own per-step trace collection, which its config
 * cannot turn off (observability {} and the logger off already): measured ~1.2 µs of CPU per gas of a 3-op loop with
 * bailOnCallFailure on or off, so coreth's 50,000,000 gas cap takes a minute of CPU, holding the chain's queue. EDR
 * cannot be stopped mid-run, so a call runs first within PROBE_GAS; only one that runs out of that gas at its top is
 * run again with more, each time only while the run, projected from the last one's time, ends within the 5 s. Code
 * whose course depends on its gas cannot be run in steps: see boundedCall.
 */
import { STEP_TRACE_GAS, STEPS, VM_ERRORS, vmError } from './access-list.ts';
import { readsGas, type Trace } from './access-list-tracer.ts';
import { enginePriced, paysFee, toMessage } from './access-list-args.ts';
import { detachedCall, engineHeader } from './detached-call.ts';
import { type CChain, EvmError } from './evm.ts';
import { RPC_GAS_CAP } from './transaction-args.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/** The gas of a call's first run: ~0.5 s of the engine's CPU on the costliest steps (2-3 gas each). */
const PROBE_GAS = 500_000n;
/**
 * The first run of gas-shaped code, which only tells an ordinary call (most take less) from one for the second
 * engine, whose whole run must fit in what is left of the 5 s.
 */
const SHAPED_PROBE_GAS = 100_000n;
/** RPCEVMTimeout's default (eth/ethconfig/config.go). */
const TIMEOUT_MS = 5_000;
const TIMEOUT = 'execution aborted (timeout = 5s)';

const quantity = (value: bigint) => `0x${value.toString(16)}`;
const failure = (message: string) => JSON.stringify({ error: { code: -32000, message } });

/** A run's result (`detached`: on the second engine), its error, or coreth's timeout. */
type Outcome = { result: unknown; detached?: true } | { error: EvmError } | { timeout: true };

/** The engine's name of the run's halt (its error's data.reason), or undefined for a revert or another error. */
function haltOf(error: EvmError): string | undefined {
  const reason = (error.data as { reason?: unknown } | undefined)?.reason;
  if (typeof reason === 'string') return reason;
  if (typeof reason !== 'object' || reason === null) return undefined;
  if ('OutOfGas' in reason) return 'OutOfGas';
  const inner = (reason as { Inner?: unknown }).Inner;
  return typeof inner === 'string' ? inner : undefined;
}

/** Opcodes that start a frame whose gas is a share of what is left (CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, STATICCALL). */
const FRAMES = new Set([0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa]);

/** Whether a run of `code` may take another course with another gas limit: it reads GAS or starts frames. */
function gasShaped(code: string): boolean {
  if (readsGas(code)) return true;
  const bytes = Buffer.from(code.slice(2), 'hex');
  for (let pc = 0; pc < bytes.length; pc++) {
    const op = bytes[pc]!;
    if (FRAMES.has(op)) return true;
    if (op >= 0x60 && op <= 0x7f) pc += op - 0x5f;
  }
  return false;
}

/** The code a call runs at its top: the state override's, the account's, or a creation's data (GAS if unknown). */
async function topCode(chain: CChain, provider: Provider, [args, block = 'latest', overrides]: unknown[]) {
  const { to, data, input } = args as { to?: unknown; data?: unknown; input?: unknown };
  if (typeof to !== 'string') return String(input ?? data ?? '0x');
  const overridden = Object.entries((overrides ?? {}) as Record<string, { code?: unknown }>).find(
    ([address]) => address.toLowerCase() === to.toLowerCase(),
  )?.[1]?.code;
  if (typeof overridden === 'string') return overridden;
  // A state the engine cannot read code at (a fork's own block) leaves the call to the engine's error, at its gas.
  return chain.call(provider, 'eth_getCode', [to, block]).then(
    (code) => code as string,
    (error: unknown) => {
      if (error instanceof EvmError) return '0x5a';
      throw error;
    },
  );
}

/** The gas the engine asks beyond `limit`, when it refused the call's intrinsic gas. */
const intrinsicOf = (error: EvmError) => /^Transaction requires at least (\d+) gas/.exec(error.message)?.[1];

/** The engine's answer (`{"result":…}` or `{"error":…}` as JSON) as an outcome. */
function outcomeOf(answer: string): Outcome {
  const { result, error } = JSON.parse(answer) as {
    result?: unknown;
    error?: { code: number; message: string; data?: unknown };
  };
  return error ? { error: new EvmError(error.code, error.message, error.data) } : { result };
}

/**
 * The engine's eth_call of `args` at `block` (engine params, any overrides after) with up to `gas`, run within
 * PROBE_GAS first and with more only while it runs out at its top and the next run is projected to end in time. Code
 * whose course may depend on its gas (./access-list-tracer.ts readsGas, or frames) is answered by a run with all of it:
 * on this engine when a first run within SHAPED_PROBE_GAS ended without running out, quickly enough for the whole run
 * to end in time; else on a second engine that coreth's deadline stops (./detached-call.ts). Code that runs long only
 * when given more gas than that first run's still runs on this engine.
 */
async function boundedCall(chain: CChain, provider: Provider, params: unknown[], gas: bigint): Promise<Outcome> {
  const [args, ...rest] = params;
  const run = async (limit: bigint): Promise<Outcome> => {
    try {
      return {
        result: await chain.call(provider, 'eth_call', [{ ...(args as object), gas: quantity(limit) }, ...rest]),
      };
    } catch (error) {
      if (!(error instanceof EvmError)) throw error;
      return { error };
    }
  };
  const started = Date.now();
  const shaped = gas > SHAPED_PROBE_GAS && gasShaped(await topCode(chain, provider, params));
  const probe = shaped ? SHAPED_PROBE_GAS : PROBE_GAS;
  if (gas <= probe) return run(gas);
  let limit = probe;
  for (;;) {
    const runStarted = Date.now();
    const outcome = await run(limit);
    if (limit >= gas) return outcome;
    const intrinsic = 'error' in outcome ? intrinsicOf(outcome.error) : undefined;
    if (intrinsic !== undefined) {
      if (BigInt(intrinsic) > gas) return run(gas);
      limit = BigInt(intrinsic) + probe < gas ? BigInt(intrinsic) + probe : gas;
      continue;
    }
    const outOfGas = 'error' in outcome && haltOf(outcome.error) === 'OutOfGas';
    if (!shaped && !outOfGas) return outcome;
    const next = shaped || limit * 2n >= gas ? gas : limit * 2n;
    const projected = ((Date.now() - runStarted) * Number(next)) / Number(limit);
    const inTime = Date.now() - started + projected <= TIMEOUT_MS;
    if (!shaped) {
      if (!inTime) return { timeout: true };
      limit = next;
      continue;
    }
    if (!outOfGas && inTime) return run(gas);
    const whole = [{ ...(args as object), gas: quantity(gas) }, ...rest];
    const detached = await detachedCall(chain, provider, whole, started + TIMEOUT_MS);
    if (detached === undefined) return run(gas);
    if ('timeout' in detached) return detached;
    const ran = outcomeOf(detached.answer);
    return 'result' in ran ? { ...ran, detached: true } : ran;
  }
}

/** geth's text of the run's halt (a step trace words those whose text names a step), or undefined for a revert. */
async function haltText(chain: CChain, provider: Provider, [args, ...rest]: unknown[], gas: bigint, error: EvmError) {
  const halt = haltOf(error);
  if (halt === undefined) return undefined;
  if (VM_ERRORS[halt]) return VM_ERRORS[halt];
  const [block = 'latest'] = rest;
  const fields = args as { to?: unknown; data?: unknown; input?: unknown };
  const steps = gas < STEP_TRACE_GAS ? gas : STEP_TRACE_GAS;
  const trace = (await chain.call(provider, 'debug_traceCall', [
    { ...fields, gas: quantity(steps) },
    block,
    STEPS,
  ])) as Trace;
  // The code the call ran at its top, a state override's included.
  const code = () => topCode(chain, provider, [args, ...rest]);
  return (await vmError(trace, code, async () => error.message)) ?? error.message;
}

/** The engine's answer as `{"error":…}` JSON, revert data kept for gethAnswer. */
const engineError = ({ code, message, data }: EvmError) =>
  JSON.stringify({ error: data === undefined || data === null ? { code, message } : { code, message, data } });

/** eth_call's answer to the engine's `params` (its gas set: ./transaction-args.ts withCallGas). */
export async function runCall(chain: CChain, provider: Provider, params: unknown[]): Promise<string> {
  const gas = gasOf(params);
  return callAnswer(chain, provider, params, gas, await boundedCall(chain, provider, params, gas));
}

/**
 * eth_call's answer to the engine's `params` run on the second engine at the block they name, read with `header`'s
 * fields (block overrides the chain's engine cannot build), under coreth's deadline; undefined when it cannot run
 * there.
 */
export async function runCallOnHeader(
  chain: CChain,
  provider: Provider,
  params: unknown[],
  header: Record<string, string>,
): Promise<string | undefined> {
  const detached = await detachedCall(chain, provider, params, Date.now() + TIMEOUT_MS, { header });
  if (!detached) return undefined;
  const outcome = 'timeout' in detached ? detached : outcomeOf(detached.answer);
  return callAnswer(chain, provider, params, gasOf(params), outcome);
}

const gasOf = (params: unknown[]) => BigInt(((params[0] ?? {}) as { gas?: string }).gas ?? quantity(RPC_GAS_CAP));

/** A run's outcome as eth_call answers it: coreth's timeout, the result, a halt in geth's words or the engine's error. */
async function callAnswer(chain: CChain, provider: Provider, params: unknown[], gas: bigint, outcome: Outcome) {
  if ('timeout' in outcome) return failure(TIMEOUT);
  if ('result' in outcome) return JSON.stringify({ result: outcome.result });
  const text = await haltText(chain, provider, params, gas, outcome.error);
  return text === undefined ? engineError(outcome.error) : failure(text);
}

/**
 * DoEstimateGas' message prices its gas at the base fee of the block it runs at (args.ToMessage(gasCap,
 * header.BaseFee), internal/ethapi/api.go; coreth's default block is the last accepted one), and GASPRICE reads that
 * price (min(tip + base fee, fee cap)): the engine, which prices a call at a base fee of 0, is given it as the
 * call's gasPrice (./access-list-args.ts enginePriced), as eth_call's is. Undefined for args the engine takes as
 * they are (paying by gasPrice, or with blob fields).
 */
async function estimatePriced(chain: CChain, provider: Provider, args: unknown, at: unknown) {
  const message = toMessage(args);
  if (typeof message === 'string' || Object.keys(args as object).some((key) => /blob/i.test(key))) return undefined;
  // The engine's estimate fills in fees a message without any lacks (GASPRICE would read them): a price of 0 it keeps.
  if (!paysFee(message)) {
    const kept = Object.entries(args as object).filter(([key]) => !/^(gasprice|max(priority)?feepergas)$/i.test(key));
    return { ...Object.fromEntries(kept), gasPrice: '0x0' };
  }
  if (message.gasPrice !== undefined) return undefined;
  const baseFee =
    at === 'pending'
      ? chain.nextBaseFee()
      : BigInt((await engineHeader(chain, provider, at ?? 'latest'))?.baseFeePerGas ?? '0x0');
  return enginePriced(args, baseFee);
}

/**
 * eth_estimateGas's answer to the engine's `params`: gasestimator.Estimate's first run at its allowance (the call's
 * gas from params.TxGas, else the block's gas limit, at most the RPC gas cap), then the engine's binary search, which
 * is given the gas that first run needed.
 */
export async function runEstimate(chain: CChain, provider: Provider, params: unknown[]): Promise<string> {
  // The engine's estimate runs on its pending block when none is named (on a fork, the first block it knows rules for).
  const [named, block = 'pending', ...rest] = params;
  const args = (await estimatePriced(chain, provider, named, params[1])) ?? named;
  const given = (args ?? {}) as { gas?: unknown };
  const header = (await chain.call(provider, 'eth_getBlockByNumber', ['latest', false])) as { gasLimit: string };
  const asked = typeof given.gas === 'string' && BigInt(given.gas) >= 21_000n ? BigInt(given.gas) : undefined;
  const wanted = asked ?? BigInt(header.gasLimit);
  const allowance = wanted < RPC_GAS_CAP ? wanted : RPC_GAS_CAP;
  const callParams = [args ?? {}, block, ...rest];
  /** The binary search of gasestimator.Estimate, to the least gas a run succeeds with. */
  const leastGas = async (succeeds: bigint) => {
    let [lo, hi] = [20_999n, succeeds];
    while (lo + 1n < hi) {
      const mid = (lo + hi) / 2n;
      const ran = await chain
        .calls(provider, [['eth_call', [{ ...(args as object), gas: quantity(mid) }, block, ...rest]]])
        .then(
          () => true,
          (error: unknown) => {
            if (error instanceof EvmError) return false;
            throw error;
          },
        );
      if (ran) hi = mid;
      else lo = mid;
    }
    return hi;
  };
  const outcome = await boundedCall(chain, provider, callParams, allowance);
  // coreth's estimate has no timeout: it runs to the allowance, which a call the mock cannot run in time is taken to pass.
  if ('timeout' in outcome || ('error' in outcome && haltOf(outcome.error) === 'OutOfGas'))
    return failure(`gas required exceeds allowance (${allowance})`);
  if ('error' in outcome) {
    const text = await haltText(chain, provider, callParams, allowance, outcome.error);
    return text === undefined ? engineError(outcome.error) : failure(text);
  }
  // A state override the engine's eth_estimateGas cannot take (./estimate-override.ts): the least gas found by eth_call.
  if (rest[0] !== undefined && rest[0] !== null) return JSON.stringify({ result: quantity(await leastGas(allowance)) });
  const searched =
    asked === undefined && allowance <= BigInt(header.gasLimit)
      ? args
      : { ...(args as object), gas: quantity(allowance) };
  // A first run that only the second engine could end in time: the engine's search, each run with up to as much gas,
  // goes there too, under a deadline of its own.
  const estimate = [searched ?? {}, block];
  const away =
    'detached' in outcome
      ? await detachedCall(chain, provider, estimate, Date.now() + TIMEOUT_MS, { method: 'eth_estimateGas' })
      : undefined;
  if (away && 'timeout' in away) return failure(`gas required exceeds allowance (${allowance})`);
  if (away) return away.answer;
  try {
    return JSON.stringify({ result: await chain.call(provider, 'eth_estimateGas', estimate) });
  } catch (error) {
    if (!(error instanceof EvmError)) throw error;
    return engineError(error);
  }
}
