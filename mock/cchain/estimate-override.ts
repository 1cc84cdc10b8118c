/**
 * eth_estimateGas's third argument, a state override (internal/ethapi BlockChainAPI.EstimateGas, DoEstimateGas's
 * overrides.Apply), which the engine's eth_estimateGas does not take: applied to the engine's latest state inside a
 * snapshot the estimate is reverted to, so nothing of it stays.
 */
import type { CChain } from './evm.ts';
import { EvmError } from './evm.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/** The tags coreth reads as the last accepted block, the one the engine's edits apply to. */
const LATEST = new Set(['latest', 'pending', 'accepted', 'safe', 'finalized']);

interface OverrideAccount {
  nonce?: unknown;
  code?: unknown;
  balance?: unknown;
  state?: unknown;
  stateDiff?: unknown;
}

/**
 * The engine's edits that make the override (OverrideAccount: nonce, code, balance, stateDiff), or undefined when the
 * engine cannot make it: `state` replaces an account's whole storage, which it has no request for.
 */
function overrideEdits(overrides: Record<string, unknown>): Array<[string, unknown[]]> | undefined {
  const edits: Array<[string, unknown[]]> = [];
  for (const [address, value] of Object.entries(overrides)) {
    if (typeof value !== 'object' || value === null) return undefined;
    const { nonce, code, balance, state, stateDiff } = value as OverrideAccount;
    if (state !== undefined && state !== null) return undefined;
    if (balance !== undefined && balance !== null) edits.push(['hardhat_setBalance', [address, balance]]);
    if (nonce !== undefined && nonce !== null) edits.push(['hardhat_setNonce', [address, nonce]]);
    if (code !== undefined && code !== null) edits.push(['hardhat_setCode', [address, code]]);
    if (typeof stateDiff === 'object' && stateDiff !== null)
      for (const [slot, word] of Object.entries(stateDiff)) edits.push(['hardhat_setStorageAt', [address, slot, word]]);
  }
  return edits;
}

/**
 * Whether the call's third argument is a state override this module applies: an object, at the last accepted block
 * (or none named), that the engine's edits can make.
 */
export function appliedOverride(params: unknown[]): boolean {
  const [, block, overrides] = params;
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) return false;
  if (block !== undefined && block !== null && !(typeof block === 'string' && LATEST.has(block))) return false;
  return overrideEdits(overrides as Record<string, unknown>) !== undefined;
}

/**
 * `estimate` run on the engine with `params`' state override made (appliedOverride said it can be), then undone: its
 * answer, or the engine's error as `{"error":…}`.
 */
export async function withOverride(
  chain: CChain,
  provider: Provider,
  params: unknown[],
  estimate: (params: unknown[]) => Promise<string | undefined>,
): Promise<string> {
  // The edits are in the engine until the revert: no other op may run meanwhile, even while a second engine runs.
  return chain.hold(() => estimateEdited(chain, provider, params, estimate));
}

async function estimateEdited(
  chain: CChain,
  provider: Provider,
  params: unknown[],
  estimate: (params: unknown[]) => Promise<string | undefined>,
): Promise<string> {
  try {
    return await edited(chain, provider, params[2] as Record<string, unknown>, async () => {
      const atBlock = params[1] === undefined || params[1] === null ? params.slice(0, 1) : params.slice(0, 2);
      const answer = await estimate(atBlock);
      if (answer !== undefined) return answer;
      return JSON.stringify({ result: await chain.call(provider, 'eth_estimateGas', atBlock) });
    });
  } catch (error) {
    if (!(error instanceof EvmError)) throw error;
    const { code, message, data } = error;
    return JSON.stringify({ error: data === undefined || data === null ? { code, message } : { code, message, data } });
  }
}

/** `work` on the engine's latest state with `overrides` made (appliedOverride said it can be), then undone. */
async function edited<T>(
  chain: CChain,
  provider: Provider,
  overrides: Record<string, unknown>,
  work: () => Promise<T>,
): Promise<T> {
  const snapshot = (await chain.call(provider, 'evm_snapshot')) as string;
  try {
    const edits = overrideEdits(overrides) ?? [];
    if (edits.length > 0) await chain.calls(provider, edits);
    return await work();
  } finally {
    await chain.call(provider, 'evm_revert', [snapshot]);
  }
}

/** `work` inside the op, on the state `overrides` make (appliedOverride said they can), which no other op sees. */
export function underOverride<T>(
  chain: CChain,
  provider: Provider,
  overrides: Record<string, unknown>,
  work: () => Promise<T>,
): Promise<T> {
  return chain.hold(() => edited(chain, provider, overrides, work));
}
