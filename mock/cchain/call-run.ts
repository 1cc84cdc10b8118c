/**
 * eth_call and eth_estimateGas run on the engine as coreth bounds them: DoCall under RPCEVMTimeout (5 s,
 * eth/ethconfig/config.go: "execution aborted (timeout = 5s)"), gasestimator.Estimate's first run at its allowance
 * ("gas required exceeds allowance (%d)"), and a halt answered -32000 in geth's words (core/vm/errors.go), no data.
 * The bound: ./bounded-run.ts.
 */
import { STEP_TRACE_GAS, STEPS, VM_ERRORS, vmError } from './access-list.ts';
import type { Trace } from './access-list-tracer.ts';
import { enginePriced, paysFee, toMessage } from './access-list-args.ts';
import { boundedCall, haltOf, type Outcome, outcomeOf, quantity, TIMEOUT_MS, topCode } from './bounded-run.ts';
import { detachedCall, engineHeader } from './detached-call.ts';
import { type CChain, EvmError } from './evm.ts';
import { RPC_GAS_CAP } from './transaction-args.ts';
import { withoutPool } from './pool-hidden.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

const TIMEOUT = 'execution aborted (timeout = 5s)';
const failure = (message: string) => JSON.stringify({ error: { code: -32000, message } });

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
  const run = async () => callAnswer(chain, provider, params, gas, await boundedCall(chain, provider, params, gas));
  return params[1] === 'pending' ? withoutPool(chain, provider, run) : run();
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
  const detached = await detachedCall(chain, provider, params, chain.queuedAt + TIMEOUT_MS, { header });
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
export function runEstimate(chain: CChain, provider: Provider, params: unknown[]): Promise<string> {
  const pending = params[1] === undefined || params[1] === 'pending';
  return pending
    ? withoutPool(chain, provider, () => estimate(chain, provider, params))
    : estimate(chain, provider, params);
}

async function estimate(chain: CChain, provider: Provider, params: unknown[]): Promise<string> {
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
