/**
 * eth_resend as coreth v1.14.2's TransactionAPI.Resend answers it (graft/coreth/internal/ethapi/api.go:1967): a
 * nonce required, setDefaults, checkTxFee of the new price and gas, then the pool's pending transactions searched for
 * one from the same sender with the same signing hash, re-signed with the new price and gas and sent. The node signs
 * only for an impersonated account (it holds no key): any other match is "unknown account", no match
 * "transaction <hash of the unsigned transaction> not found".
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type CChain, EvmError } from './evm.ts';
import type { Serve } from './json-rpc.ts';
import { transactionSender } from './raw-transaction.ts';
import { askNode, big, defaultsOf, engineArgs, transactionArgs, unsigned } from './sign-fill.ts';
import { checkTxFee } from './submit-limits.ts';

type Fields = Uint8Array[];

/** A signed transaction's type and fields. */
function decode(raw: string): { type: number; fields: Fields } {
  const bytes = Buffer.from(raw.slice(2), 'hex');
  const type = bytes[0]! >= 0xc0 ? 0 : bytes[0]!;
  return { type, fields: RLP.decode(type === 0 ? bytes : bytes.subarray(1)) as Fields };
}

/** The hash of the transaction with its signature zeroed, as toTransaction's unsigned one hashes. */
function unsignedHash(raw: string): string {
  const { type, fields } = decode(raw);
  const body = RLP.encode([...fields.slice(0, -3), 0n, 0n, 0n] as Parameters<typeof RLP.encode>[0]);
  const bytes = type === 0 ? body : Buffer.concat([Buffer.from([type]), body]);
  return `0x${Buffer.from(keccak_256(bytes)).toString('hex')}`;
}

const nonceOf = (raw: string) => {
  const { type, fields } = decode(raw);
  const nonce = fields[type === 0 ? 0 : 1]!;
  return nonce.length === 0 ? 0n : BigInt(`0x${Buffer.from(nonce).toString('hex')}`);
};

/**
 * A pooled transaction's sender: the engine signs an impersonated account's with a fake signature, r and s both its
 * address (./replay.ts), which recovers to no one's; any other is recovered.
 */
function senderOf(raw: string): string | undefined {
  const [r, s] = decode(raw).fields.slice(-2) as Fields;
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
  if (r && s && r.length <= 20 && hex(r) === hex(s)) return `0x${hex(r).padStart(40, '0')}`;
  return transactionSender(raw)?.toLowerCase();
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
    const found = [...chain.world.cChainPool.values()].some(
      ({ raw }) => senderOf(raw) === from && nonceOf(raw) < pendingNonce && unsignedHash(raw) === match.hash,
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
