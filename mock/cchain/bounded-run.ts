/**
 * An eth_call run on the engine within a bound that keeps coreth's answer: DoCall's RPCEVMTimeout (5 s,
 * eth/ethconfig/config.go). The engine (EDR 0.22) runs an eth_call with its own per-step trace collection, which its
 * config cannot turn off (observability {} and the logger off already): measured ~1.2 µs of CPU per gas of a 3-op loop
 * (~2-5 µs under load), so coreth's 50,000,000 gas cap takes a minute of CPU, holding the chain's queue. EDR cannot be
 * stopped mid-run, so a call runs first within PROBE_GAS; only one that runs out of that gas at its top is run again
 * with more, each time only while the run, projected from the last one's time, ends within the 5 s. Code whose course
 * depends on its gas cannot be run in steps: see boundedCall.
 */
import { readsGas } from './access-list-tracer.ts';
import { detachedCall } from './detached-call.ts';
import { type CChain, EvmError } from './evm.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/** The gas of a call's first run: ~0.5 s of the engine's CPU on the costliest steps (2-3 gas each). */
const PROBE_GAS = 500_000n;
/**
 * The first run of gas-shaped code, which only tells an ordinary call (most take less) from one for the second
 * engine, whose whole run must fit in what is left of the 5 s.
 */
const SHAPED_PROBE_GAS = 100_000n;
/** ethconfig's RPCEVMTimeout (eth/ethconfig/config.go); a v1.14.2 node's default api-max-duration, 0, has none (mock/README.md). */
export const TIMEOUT_MS = 5_000;

export const quantity = (value: bigint) => `0x${value.toString(16)}`;

/** A run's result (`detached`: on the second engine), its error, or coreth's timeout. */
export type Outcome = { result: unknown; detached?: true } | { error: EvmError } | { timeout: true };

/** The engine's name of the run's halt (its error's data.reason), or undefined for a revert or another error. */
export function haltOf(error: EvmError): string | undefined {
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
export async function topCode(chain: CChain, provider: Provider, [args, block = 'latest', overrides]: unknown[]) {
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
export function outcomeOf(answer: string): Outcome {
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
export async function boundedCall(chain: CChain, provider: Provider, params: unknown[], gas: bigint): Promise<Outcome> {
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
  // coreth's deadline counts from the request's arrival, not from the op's turn in the chain's queue.
  const started = chain.queuedAt;
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
