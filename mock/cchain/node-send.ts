/**
 * eth_sendTransaction from an account the node signs for (an impersonated one, the mock holding no key) as coreth's
 * TransactionAPI.SendTransaction sends it (graft/coreth/internal/ethapi/api.go): under the account's nonce lock when
 * no nonce is given (AddrLocker), setDefaults (the nonce, the fees, DoEstimateGas's gas: its refusal is the send's),
 * then SubmitTransaction's checkTxFee, before the engine signs and pools the transaction the args now name.
 */
import type { CChain } from './evm.ts';
import type { Serve } from './json-rpc.ts';
import { sendDefaults } from './sign-fill.ts';

const locks = new WeakMap<CChain, Map<string, Promise<unknown>>>();

/** `work` once the sends from `address` locked before it have ended (AddrLocker.LockAddr). */
async function locked<T>(chain: CChain, address: string, work: () => Promise<T>): Promise<T> {
  let byAddress = locks.get(chain);
  if (!byAddress) locks.set(chain, (byAddress = new Map()));
  const run = (byAddress.get(address) ?? Promise.resolve()).then(work);
  const tail = run.catch(() => undefined);
  byAddress.set(address, tail);
  try {
    return await run;
  } finally {
    if (byAddress.get(address) === tail) byAddress.delete(address);
  }
}

/**
 * The send of `params` (eth_sendTransaction's, from an account the node signs for) by `send` with setDefaults' args,
 * or `refuse`'s answer to the error that stopped it first.
 */
export function sendFromNode(
  chain: CChain,
  serve: () => Serve,
  from: string,
  params: unknown,
  send: (filled: unknown[]) => Promise<string>,
  refuse: (error: unknown) => string,
): Promise<string> {
  const [args] = Array.isArray(params) ? params : [];
  const nonce = (args as { nonce?: unknown } | undefined)?.nonce;
  const fill = async () => {
    const filled = await sendDefaults(serve, params).catch((error: unknown) => error as Error);
    return filled instanceof Error ? refuse(filled) : send([filled]);
  };
  return nonce === undefined || nonce === null ? locked(chain, from, fill) : fill();
}
