/**
 * eth_resend as coreth v1.14.2's TransactionAPI.Resend answers it (graft/coreth/internal/ethapi/api.go:1967): a
 * nonce required, setDefaults, checkTxFee of the new price and gas, then the pool's pending transactions searched for
 * one from the same sender with the same signing hash, re-signed with the new price and gas and sent. The node signs
 * only for an impersonated account, or any under auto-impersonation (it holds no key): any other match is "unknown
 * account", no match
 * "transaction <hash of the unsigned transaction> not found".
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type CChain, EvmError } from './evm.ts';
import type { Serve } from './json-rpc.ts';
import { transactionSender } from './raw-transaction.ts';
import { type SignedTx, decodeSigned } from './signed-tx.ts';
import { askNode, big, defaultsOf, engineArgs, transactionArgs, unsigned } from './sign-fill.ts';
import { checkTxFee } from './submit-limits.ts';

/** The hash of the transaction with its signature zeroed, as toTransaction's unsigned one hashes. */
function unsignedHash({ type, fields }: SignedTx): string {
  const body = RLP.encode([...fields.slice(0, -3), 0n, 0n, 0n] as Parameters<typeof RLP.encode>[0]);
  const bytes = type === 0 ? body : Buffer.concat([Buffer.from([type]), body]);
  return `0x${Buffer.from(keccak_256(bytes)).toString('hex')}`;
}

/** A pooled transaction from `from` below `nonce` whose unsigned hash is `hash`. */
function matches(raw: string, from: string, nonce: bigint, hash: string): boolean {
  const tx = decodeSigned(raw);
  if (!tx || tx.nonce >= nonce || unsignedHash(tx) !== hash) return false;
  return (tx.impersonatedBy ?? transactionSender(raw)?.toLowerCase()) === from;
}

const given = (value: unknown) => value !== undefined && value !== null;

export function resendMethod(chain: CChain, serve: () => Serve): (params: unknown) => Promise<unknown> {
  const ask = (method: string, params: unknown[]) => askNode(serve, method, params);
  return async (params) => {
    const [, gasPrice, gasLimit] = Array.isArray(params) ? params : [];
    const args = transactionArgs(params);
    if (args.nonce === undefined) throw new EvmError(-32000, 'missing transaction nonce in transaction spec');
    await defaultsOf(serve)(args);
    const match = unsigned(args).tx;
    const price = given(gasPrice) ? big(gasPrice) : big(match.maxFeePerGas ?? match.gasPrice);
    const refused = checkTxFee(price, given(gasLimit) ? big(gasLimit) : big(match.gas));
    if (refused) throw new Error(refused);
    const from = (typeof args.from === 'string' ? args.from : `0x${'0'.repeat(40)}`).toLowerCase();
    // The pool's pending transactions (legacypool Pending): the sender's below its pending nonce, not the queued.
    const pendingNonce = big(await ask('eth_getTransactionCount', [from, 'pending']));
    const found = [...chain.world.cChainPool.values()].some(({ raw }) =>
      matches(raw, from, pendingNonce, match.hash as string),
    );
    if (!found) throw new Error(`transaction ${match.hash} not found`);
    // Auto-impersonation signs for every sender (./rpc.ts), as the node would for its keystore's accounts.
    if (!chain.impersonated.has(from.slice(2)) && !(chain.autoImpersonate && typeof args.from === 'string'))
      throw new Error('unknown account');
    // A new price replaces a gas price; a dynamic-fee transaction keeps its fee caps (toTransaction reads those first).
    if (given(gasPrice) && big(gasPrice) !== 0n) args.gasprice = gasPrice;
    if (given(gasLimit) && big(gasLimit) !== 0n) args.gas = gasLimit;
    const resent = engineArgs(args);
    return ask('eth_sendTransaction', [resent]);
  };
}
