/**
 * `/ext/bc/C/rpc`'s writes (eth_sendRawTransaction, eth_sendTransaction) past the params check (./rpc.ts): the pool's
 * refusals before the engine sees them, then the send, an auto-impersonated sender's impersonated for it alone, and
 * the pool's record of what the engine took (world.cChainPool, which snapshots and reverts keep; saved states do not).
 */
import { ethChecksum } from '../engine/dev.ts';
import { corethAnswer } from './block-hashes.ts';
import { transactionBytes } from './blocks.ts';
import { asImpersonated, dropFromEngine } from './engine-pool.ts';
import type { CChain } from './evm.ts';
import { pricedOf, tipRefusal } from './min-tip.ts';
import { pooledAt, transactionHash } from './nonce-queue.ts';
import { resendRaw } from './replay.ts';
import { transactionSender } from './raw-transaction.ts';
import { decodeSigned } from './signed-tx.ts';
import { submitRefusal } from './submit-limits.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/**
 * eth_sendTransaction's `from` (40-hex): a node signs only for its keystore's accounts, which the mock has none of, so
 * only an address `dev.impersonate` named is sent; any other is accounts.ErrUnknownAccount (internal/ethapi
 * SendTransaction's AccountManager().Find), the zero address when `from` is absent, as args.from() reads it.
 */
export function senderOf(params: unknown): string {
  const from = fromOf(params);
  return typeof from === 'string' ? from.slice(2).toLowerCase() : '0'.repeat(40);
}

const fromOf = (params: unknown) =>
  ((Array.isArray(params) ? params[0] : undefined) as { from?: unknown } | undefined)?.from;

/** The sender auto-impersonation alone covers, `0x`-prefixed, for whom the engine impersonates for one send. */
const autoImpersonated = (chain: CChain, method: string, params: unknown) =>
  method === 'eth_sendTransaction' && !chain.impersonated.has(senderOf(params)) ? `0x${senderOf(params)}` : undefined;

/** The last accepted block's gas limit, which the pool checks a transaction's gas against. */
const headGasLimit = (chain: CChain) =>
  chain.run(async (p) => {
    const head = (await chain.call(p, 'eth_getBlockByNumber', ['latest', false])) as { gasLimit: string };
    return BigInt(head.gasLimit);
  });

/**
 * The node's refusal (-32000) of a write before the engine sees it, or undefined. `unsigned`: anvil's
 * eth_sendUnsignedTransaction, sent from its `from` as an impersonated account's.
 */
export async function writeRefusal(
  chain: CChain,
  method: string,
  params: unknown,
  unsigned = false,
): Promise<string | undefined> {
  const [signed] = Array.isArray(params) ? params : [];
  if (method === 'eth_sendRawTransaction' && typeof signed === 'string') {
    const undecoded = submitRefusal(signed);
    if (undecoded) return undecoded;
    const priced = pricedOf(signed);
    if (priced && priced.tip < 1n) return tipRefusal(priced, await headGasLimit(chain));
  }
  // A missing `from` is the zero address, in no keystore: unknown account even under auto-impersonation (anvil's
  // would be its first account).
  const impersonating = (chain.autoImpersonate || unsigned) && typeof fromOf(params) === 'string';
  if (autoImpersonated(chain, method, params) && !impersonating) return 'unknown account';
  return undefined;
}

/** The sender of an eth_sendRawTransaction or eth_sendTransaction call, checksummed. */
export function senderOfWrite(method: string, params: unknown): string | undefined {
  const [first] = Array.isArray(params) ? params : [];
  if (method === 'eth_sendRawTransaction') return typeof first === 'string' ? transactionSender(first) : undefined;
  return ethChecksum(senderOf(params));
}

/** legacypool.DefaultConfig.PriceBump: the percentage a replacement raises both fee caps by. */
const PRICE_BUMP = 10n;

/** What the pool's replacement rule reads of a transaction: its sender (checksummed), nonce and both caps. */
interface Priced {
  sender: string;
  nonce: bigint;
  feeCap: bigint;
  tip: bigint;
}

/**
 * The sender, nonce and caps of a write: a signed transaction's, or eth_sendTransaction's args as setDefaults filled
 * them (./node-send.ts), which the engine signs unchanged.
 */
function pricedWrite(method: string, params: unknown): Priced | undefined {
  const [first] = Array.isArray(params) ? params : [];
  if (method === 'eth_sendRawTransaction') {
    const tx = typeof first === 'string' ? decodeSigned(first) : undefined;
    const sender = tx && (tx.impersonatedBy ? ethChecksum(tx.impersonatedBy.slice(2)) : transactionSender(first));
    return tx && sender ? { sender, nonce: tx.nonce, feeCap: tx.feeCap, tip: tx.tip } : undefined;
  }
  const args = first as Record<string, unknown> | undefined;
  const quantity = (value: unknown) => (typeof value === 'string' ? BigInt(value) : undefined);
  const nonce = quantity(args?.nonce);
  const feeCap = quantity(args?.maxFeePerGas ?? args?.gasPrice);
  const tip = quantity(args?.maxPriorityFeePerGas ?? args?.gasPrice);
  if (nonce === undefined || feeCap === undefined || tip === undefined) return undefined;
  return { sender: ethChecksum(senderOf(params)), nonce, feeCap, tip };
}

/**
 * Whether legacypool's list.Add takes `next` in place of `old` (same sender and nonce): both caps above the old
 * ones, and at least the old ones raised by PRICE_BUMP, rounded down (big.Int's Div). The engine rounds the bump up,
 * so it refuses what coreth takes when the old caps times 110 are no multiple of 100 (19 wei → 20).
 */
function replaces(old: string, next: Priced): boolean {
  const was = decodeSigned(old);
  if (!was || next.feeCap <= was.feeCap || next.tip <= was.tip) return false;
  const bumped = (cap: bigint) => (cap * (100n + PRICE_BUMP)) / 100n;
  return next.feeCap >= bumped(was.feeCap) && next.tip >= bumped(was.tip);
}

/**
 * A write sent in place of the pooled transaction of its sender and nonce that coreth's rule lets it replace: the
 * old one leaves the engine's pool first, so the engine's own rule never refuses it; refused for anything else, the
 * old one goes back as it came (the pool's journal kept it throughout).
 */
async function sendReplacing(chain: CChain, p: Provider, method: string, params: unknown, request: string) {
  // An automining chain's pool is mostly empty: no sender is recovered then.
  const next = chain.world.cChainPool.size > 0 ? pricedWrite(method, params) : undefined;
  const old = next && pooledAt(chain.world, next.sender, next.nonce);
  if (!old || !replaces(old.raw, next)) return chain.sendTransaction(p, request);
  await dropFromEngine(chain, p, [old.hash]);
  const sent = await chain.sendTransaction(p, request);
  if ((JSON.parse(sent.answer) as { result?: unknown }).result === undefined)
    await resendRaw(chain, p, old.raw).catch(() => undefined);
  return sent;
}

/** A write's `request` (the engine's JSON-RPC text) sent, inside a write op: the engine's answer text. */
export async function sendWrite(
  chain: CChain,
  p: Provider,
  method: string,
  params: unknown,
  request: string,
): Promise<string> {
  const [raw] = Array.isArray(params) ? params : [];
  // The pool's first check (legacypool.add): a tx it holds (the engine would take it for an underpriced replacement).
  if (
    method === 'eth_sendRawTransaction' &&
    typeof raw === 'string' &&
    chain.world.cChainPool.has(transactionHash(raw))
  )
    return '{"error":{"code":-32000,"message":"already known"}}';
  const { answer: sent, held } = await asImpersonated(chain, p, autoImpersonated(chain, method, params), () =>
    sendReplacing(chain, p, method, params, request),
  );
  const answer = corethAnswer(chain, method, sent);
  const { result } = JSON.parse(answer) as { result?: unknown };
  if (typeof result !== 'string') return answer;
  if (method === 'eth_sendRawTransaction' && typeof raw === 'string') await chain.pooled(p, result, raw, held);
  if (method === 'eth_sendTransaction') {
    // Signed by the engine with an impersonated sender's fake signature, which the replay recognises.
    const tx = await chain.call(p, 'eth_getTransactionByHash', [result]);
    if (tx)
      await chain.pooled(
        p,
        result,
        `0x${Buffer.from(transactionBytes(tx as Parameters<typeof transactionBytes>[0])).toString('hex')}`,
        held,
      );
  }
  return answer;
}
