/**
 * The engine's answers rewritten in geth's words where they differ in shape, not only text: a call or a gas estimate
 * that reverts (internal/ethapi: DoCall, DoEstimateGas, newRevertError). With revert data the error is code 3,
 * "execution reverted" with the reason abi.UnpackRevert finds after ": ", and the data in hex; without, it is
 * -32000 "execution reverted" (vm.ErrExecutionReverted), no data.
 */

/** abi's panicReasons (accounts/abi/abi.go). */
const PANIC_REASONS: Record<string, string> = {
  '0': 'generic panic',
  '1': 'assert(false)',
  '17': 'arithmetic underflow or overflow',
  '18': 'division or modulo by zero',
  '33': 'enum overflow',
  '34': 'invalid encoded storage byte array accessed',
  '49': 'out-of-bounds array access; popping on an empty array',
  '50': 'out-of-bounds access of an array or bytesN',
  '65': 'out of memory',
  '81': 'uninitialized function',
};

const word = (data: Buffer, at: number) =>
  at + 32 <= data.length ? BigInt(`0x${data.subarray(at, at + 32).toString('hex')}`) : undefined;

/** abi.UnpackRevert: Error(string)'s text or Panic(uint256)'s reason, or undefined when the data is neither. */
export function unpackRevert(hex: string): string | undefined {
  const data = Buffer.from(hex.slice(2), 'hex');
  const selector = data.subarray(0, 4).toString('hex');
  const body = data.subarray(4);
  if (selector === '4e487b71') {
    const code = word(body, 0);
    if (code === undefined) return undefined;
    return PANIC_REASONS[code.toString()] ?? `unknown panic code: 0x${code.toString(16)}`;
  }
  if (selector !== '08c379a0') return undefined;
  const offset = word(body, 0);
  const length = offset === undefined || offset > 2n ** 32n ? undefined : word(body, Number(offset));
  if (length === undefined || length > BigInt(body.length)) return undefined;
  const start = Number(offset) + 32;
  if (start + Number(length) > body.length) return undefined;
  return new TextDecoder().decode(body.subarray(start, start + Number(length)));
}

const REVERTING = new Set(['eth_call', 'eth_estimateGas']);

/**
 * An eth_call that fails before it runs (graft/coreth/core/state_transition.go:465, 480), in DoCall's wrapping
 * "err: %w (supplied gas %d)" (internal/ethapi/api.go:1127): the engine's text in coreth's, or undefined. `params` are
 * the call's as the engine ran it (./transaction-args.ts withCallGas: its gas is set).
 */
function callFailure(message: string, params: unknown): string | undefined {
  const [args] = Array.isArray(params) ? (params as [Record<string, unknown>?]) : [];
  const gas = typeof args?.gas === 'string' ? BigInt(args.gas) : undefined;
  if (gas === undefined) return undefined;
  const intrinsic = /^Transaction requires at least (\d+) gas but got (\d+)/.exec(message);
  if (intrinsic) return `err: intrinsic gas too low: have ${intrinsic[2]}, want ${intrinsic[1]} (supplied gas ${gas})`;
  if (message === 'create initcode size limit') {
    const data = args?.input ?? args?.data;
    const size = typeof data === 'string' ? (data.length - 2) / 2 : 0;
    return `err: max initcode size exceeded: code size ${size} limit 49152 (supplied gas ${gas})`;
  }
  return undefined;
}

/**
 * The engine's answer (`{"result":…}` or `{"error":…}`) to `method`, as geth gives it. The engine reports a revert
 * with its revert data under `data.reason.Revert` (eth_call fails so only when the engine bails on call failures).
 */
export function gethAnswer(method: string, answer: string, params?: unknown): string {
  if (!REVERTING.has(method) || !answer.startsWith('{"error"')) return answer;
  const { error } = JSON.parse(answer) as { error: { message?: unknown; data?: { reason?: { Revert?: unknown } } } };
  const revert = error.data?.reason?.Revert;
  if (method === 'eth_call' && params !== undefined && typeof error.message === 'string') {
    const failed = callFailure(error.message, params);
    if (failed) return JSON.stringify({ error: { code: -32000, message: failed } });
  }
  if (typeof revert !== 'string') return answer;
  if (revert.length <= 2) return '{"error":{"code":-32000,"message":"execution reverted"}}';
  const reason = unpackRevert(revert);
  const message = reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`;
  return JSON.stringify({ error: { code: 3, message, data: revert } });
}

/**
 * The engine's refusals of a transaction sent, by its text, each with coreth's: the txpool's checks
 * (core/txpool/validation.go ValidateTransaction, ValidateTransactionWithState), every one code -32000. ethers and
 * viem name an error by these words (INSUFFICIENT_FUNDS, IntrinsicGasTooLowError...).
 */
const REFUSALS: Array<[RegExp, (m: RegExpExecArray, sender: () => string | undefined) => string | undefined]> = [
  [
    /^Nonce too low\. Expected nonce to be (\d+) but got (\d+)\./,
    (m) => `nonce too low: next nonce ${m[1]}, tx nonce ${m[2]}`,
  ],
  [
    /^Sender doesn't have enough funds to send tx\. The max upfront cost is: (\d+) and the sender's balance is: (\d+)\./,
    (m) =>
      `insufficient funds for gas * price + value: balance ${m[2]}, tx cost ${m[1]}, overshot ${BigInt(m[1]!) - BigInt(m[2]!)}`,
  ],
  [
    /^Transaction requires at least (\d+) gas but got (\d+)/,
    (m, sender) => {
      const from = sender();
      return from && `intrinsic gas too low: address ${from} tx gas (${m[2]}), minimum needed ${m[1]}`;
    },
  ],
  [
    /^\s*Trying to send a deployment transaction whose init code length is (\d+)\. The max length allowed by EIP-3860 is (\d+)\./,
    (m) => `max initcode size exceeded: code size ${m[1]}, limit ${m[2]}`,
  ],
  [
    /^Transaction gas limit is (\d+) and exceeds block gas limit of (\d+)/,
    (m) => `exceeds block gas limit: tx gas (${m[1]}) > current max gas (${m[2]})`,
  ],
  // legacypool's list.Add: a tx replacing one of the same nonce must raise both fee caps by PriceBump (10%).
  [/^Replacement transaction underpriced\./, () => 'replacement transaction underpriced'],
  // types.Transaction.UnmarshalBinary (core/types/transaction.go decodeTyped): a type byte it does not know.
  [/^Invalid transaction type \d+\./, () => 'transaction type not supported'],
  // types.Sender fails on another chain's signature: the pool answers ErrInvalidSender.
  [/^Trying to send a raw transaction with an invalid chainId/, () => 'invalid sender'],
];

/** The engine's answer to a transaction sent, its refusal in coreth's words; `sender` the transaction's sender. */
export function corethRefusal(answer: string, sender: () => string | undefined): string {
  if (!answer.startsWith('{"error"')) return answer;
  const { error } = JSON.parse(answer) as { error: { message?: unknown } };
  if (typeof error.message !== 'string') return answer;
  for (const [pattern, text] of REFUSALS) {
    const match = pattern.exec(error.message);
    const message = match && text(match, sender);
    if (message) return JSON.stringify({ error: { code: -32000, message } });
  }
  return answer;
}
