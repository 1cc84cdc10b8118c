/**
 * The `eth_*` methods coreth's default `eth-apis` serve (plugin/evm/config/default_config.go: "eth",
 * "internal-eth", "internal-blockchain", "internal-transaction") that the engine has no answer to, as coreth answers
 * them on a node without a keystore account: internal/ethapi/api.go's TransactionAPI (raw transactions, the pending
 * transactions of the node's own accounts; Resend is ./resend.ts), api_extra.go's BlockChainAPI (CallDetailed, GetBadBlocks) and
 * eth/api.go's Etherbase.
 */
import { engineParams } from './block-hashes.ts';
import { readBlock } from './block-reads.ts';
import { transactionBytes } from './blocks.ts';
import { type CChain, EvmError } from './evm.ts';
import { unpackRevert } from './geth-errors.ts';
import { VM_ERRORS } from './access-list.ts';
import { withCallGas } from './transaction-args.ts';
import { appliedOverride, underOverride } from './estimate-override.ts';

type Method = (params: unknown) => Promise<unknown>;
type RpcTransaction = Parameters<typeof transactionBytes>[0];

/** hexutil.Bytes of a transaction (MarshalBinary), or of none: a nil hexutil.Bytes is written "0x". */
const rawOf = (tx: RpcTransaction | null | undefined): string =>
  tx ? `0x${Buffer.from(transactionBytes(tx)).toString('hex')}` : '0x';

/** newRPCRawTransactionFromBlockIndex: the bytes of the block's transaction at the index, `0x` for none. */
async function rawAt(chain: CChain, read: string, params: unknown): Promise<string> {
  const [at, index] = params as [unknown, string];
  const block = (await readBlock(chain, read, [at, true])) as { transactions: RpcTransaction[] } | null;
  return rawOf(block?.transactions[Number(BigInt(index))]);
}

/** The halts core/vm words (ExecutionResult.Err), which CallDetailed reports; any other error fails the call. */
const isVmError = (message: string) =>
  Object.values(VM_ERRORS).includes(message) || message.startsWith('invalid opcode: ');

/** rpc.Error's code of a revert (revertError.ErrorCode), which eth_call's error carries too. */
const REVERTED = 3;

interface CallAnswer {
  result?: string;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * CallDetailed's DetailedExecutionResult: DoCall's run, as eth_call's (`call`, every check and bound of it), with its
 * gas used, its vm error's text and code (3 for a revert, with abi.UnpackRevert's reason), and what it returned. An
 * error before the run (DoCall's: a bad nonce, too little balance, the timeout) is the call's error.
 */
async function callDetailed(chain: CChain, call: (params: unknown) => Promise<string>, params: unknown) {
  const [args, block = 'latest', overrides] = engineParams(
    chain,
    'eth_call',
    withCallGas('eth_call', params),
  ) as unknown[];
  const { result, error } = JSON.parse(await call(params)) as CallAnswer;
  if (error?.code === -32602) throw new EvmError(error.code, error.message);
  // The engine's debug_traceCall, which measures the gas, takes no override: it runs on the override's edits.
  const overridden = overrides !== undefined && overrides !== null;
  if (overridden && !appliedOverride([args, block, overrides]))
    throw new EvmError(
      -32000,
      "eth_callDetailed: the mock measures an overridden call's gas on the last accepted block's state with the " +
        "override's edits, which cannot replace an account's whole storage (`state`) nor edit an older block",
    );
  // The engine's run again, under its callTracer, for the gas it used.
  const gasOf = () =>
    chain.run(async (provider) => {
      const trace = () =>
        chain.call(provider, 'debug_traceCall', [args, block, { tracer: 'callTracer' }]) as Promise<{
          gasUsed: string;
        }>;
      const frame = overridden
        ? await underOverride(chain, provider, overrides as Record<string, unknown>, trace)
        : await trace();
      return Number(BigInt(frame.gasUsed));
    });
  if (error === undefined) return { gas: await gasOf(), errCode: 0, err: '', returnData: result ?? '0x' };
  if (error.code === REVERTED) {
    const data = typeof error.data === 'string' ? error.data : '0x';
    const reason = unpackRevert(data);
    const err = reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`;
    return { gas: await gasOf(), errCode: REVERTED, err, returnData: data };
  }
  // A revert without data is ErrExecutionReverted itself, no rpc.Error: code 0, and the gas it left unused returned.
  if (error.message === 'execution reverted')
    return { gas: await gasOf(), errCode: 0, err: error.message, returnData: '0x' };
  if (!isVmError(error.message)) throw new EvmError(error.code, error.message, error.data);
  // A halt uses all the gas the run had.
  return { gas: Number(BigInt((args as { gas: string }).gas)), errCode: 0, err: error.message, returnData: '0x' };
}

/** The methods, by name: a transaction read by `transactionByHash`, a call run by `call` (eth_call's answer, JSON). */
export function corethDefaultMethods(
  chain: CChain,
  { transactionByHash, call }: { transactionByHash: Method; call: (params: unknown) => Promise<string> },
): Record<string, Method> {
  return {
    eth_getRawTransactionByHash: async (params) => rawOf((await transactionByHash(params)) as RpcTransaction | null),
    eth_getRawTransactionByBlockNumberAndIndex: (params) => rawAt(chain, 'eth_getBlockByNumber', params),
    eth_getRawTransactionByBlockHashAndIndex: (params) => rawAt(chain, 'eth_getBlockByHash', params),
    // Only the pool's transactions sent from the node's own accounts, of which it has none.
    eth_pendingTransactions: async () => [],
    // The blocks the chain refused, of which the mock's has none.
    eth_getBadBlocks: async () => [],
    eth_callDetailed: (params) => callDetailed(chain, call, params),
    // Ethereum.Etherbase: the miner's etherbase, coreth's BlackholeAddr on every node (or anvil_setCoinbase's).
    eth_etherbase: async () => `0x${chain.coinbase}`,
  };
}
