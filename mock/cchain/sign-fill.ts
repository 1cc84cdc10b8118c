/**
 * eth_signTransaction and eth_fillTransaction as coreth v1.14.2's TransactionAPI answers them (graft/coreth/internal/
 * ethapi/api.go :1848, :1908), served by default (`internal-transaction`). Fill needs no key: setDefaults
 * (transaction_args.go :111), then the unsigned transaction as `{raw, tx}`. Sign checks its args, fills them, checks
 * the fee against RPCTxFeeCap and then asks the account manager, which on the mock's node holds no key:
 * accounts.ErrUnknownAccount. The defaults are read through the endpoint's own answers (nonce, tip, base fee, gas
 * estimate, chain ID), so they agree with what a caller reads.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { EvmError } from './evm.ts';
import type { Serve } from './json-rpc.ts';
import { checkTxFee } from './submit-limits.ts';
import type { AccessTuple as ListTuple } from './access-list-args.ts';
import { tipRefusal } from './min-tip.ts';

export type Args = Record<string, unknown>;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/** TransactionArgs as Go's decoder fills it: keys matched whatever their case, the last of duplicates, null unset. */
export function transactionArgs(params: unknown): Args {
  const [value] = Array.isArray(params) ? params : [];
  const args: Args = {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    for (const [key, field] of Object.entries(value)) if (field !== null) args[key.toLowerCase()] = field;
  return args;
}

export const big = (value: unknown) => BigInt(value as string);
const quantity = (value: bigint) => `0x${value.toString(16)}`;
const bytesOf = (hex: unknown) => Buffer.from(String(hex ?? '0x').slice(2), 'hex');

/** One call to the endpoint itself: its result, or its error thrown as it was answered. */
export async function askNode(serve: () => Serve, method: string, params: unknown[]): Promise<unknown> {
  const answer = JSON.parse(await serve()('1', method, params)) as {
    result?: unknown;
    error?: { code: number; message: string; data?: unknown };
  };
  if (answer.error) throw new EvmError(answer.error.code, answer.error.message, answer.error.data);
  return answer.result;
}

/** setDefaults (transaction_args.go), its reads through the endpoint's own answers. */
export function defaultsOf(serve: () => Serve): (args: Args) => Promise<void> {
  /** One call to the endpoint itself: its result, or its error thrown as it was answered. */
  const ask = (method: string, params: unknown[]) => askNode(serve, method, params);

  /** setFeeDefaults on a chain past London (every C-Chain since Apricot Phase 3). */
  async function setFeeDefaults(args: Args): Promise<void> {
    const eip1559 = args.maxfeepergas !== undefined && args.maxpriorityfeepergas !== undefined;
    if (args.gasprice !== undefined && (args.maxfeepergas !== undefined || args.maxpriorityfeepergas !== undefined))
      throw new Error('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
    if (args.gasprice === undefined && eip1559) {
      if (big(args.maxfeepergas) === 0n) throw new Error('maxFeePerGas must be non-zero');
      if (big(args.maxfeepergas) < big(args.maxpriorityfeepergas)) throw feeOrder(args);
      return;
    }
    if (args.gasprice !== undefined) {
      if (big(args.gasprice) === 0n) throw new Error('gasPrice must be non-zero after london fork');
      return;
    }
    // setApricotPhase3FeeDefault: the suggested tip, and twice the head's base fee on top of it.
    args.maxpriorityfeepergas ??= await ask('eth_maxPriorityFeePerGas', []);
    if (args.maxfeepergas === undefined) {
      const head = (await ask('eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas?: string };
      args.maxfeepergas = quantity(big(args.maxpriorityfeepergas) + 2n * BigInt(head.baseFeePerGas ?? 0));
    }
    if (big(args.maxfeepergas) < big(args.maxpriorityfeepergas)) throw feeOrder(args);
  }

  async function setDefaults(args: Args): Promise<void> {
    await setFeeDefaults(args);
    args.value ??= '0x0';
    const from = typeof args.from === 'string' ? args.from : ZERO_ADDRESS;
    args.nonce ??= await ask('eth_getTransactionCount', [from, 'pending']);
    if (args.data !== undefined && args.input !== undefined && args.data !== args.input)
      throw new Error(
        'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
      );
    const data = args.input ?? args.data ?? '0x';
    if (args.to === undefined && bytesOf(data).length === 0)
      throw new Error('contract creation without any data provided');
    if (args.gas === undefined) {
      const call: Args = { from: args.from, to: args.to, value: args.value, data, accessList: args.accesslist };
      for (const [key, name] of FEE_NAMES) if (args[key] !== undefined) call[name] = args[key];
      args.gas = await ask('eth_estimateGas', [withoutUndefined(call), 'latest']);
    }
    const want = big(await ask('eth_chainId', []));
    if (args.chainid !== undefined && big(args.chainid) !== want)
      throw new Error(`chainId does not match node's (have=${big(args.chainid)}, want=${want})`);
    args.chainid ??= quantity(want);
  }

  return setDefaults;
}

export function signFillMethods(serve: () => Serve): Record<string, (params: unknown) => Promise<unknown>> {
  const setDefaults = defaultsOf(serve);
  return {
    eth_fillTransaction: async (params) => {
      const args = transactionArgs(params);
      await setDefaults(args);
      return unsigned(args);
    },
    eth_signTransaction: async (params) => {
      const args = transactionArgs(params);
      if (args.gas === undefined) throw new Error('gas not specified');
      if (args.gasprice === undefined && (args.maxpriorityfeepergas === undefined || args.maxfeepergas === undefined))
        throw new Error('missing gasPrice or maxFeePerGas/maxPriorityFeePerGas');
      if (args.blobversionedhashes !== undefined || args.maxfeeperblobgas !== undefined)
        throw new Error('signing blob transactions not supported');
      if (args.nonce === undefined) throw new Error('nonce not specified');
      await setDefaults(args);
      const tx = unsigned(args).tx;
      const refused = checkTxFee(big(tx.maxFeePerGas ?? tx.gasPrice), big(tx.gas));
      if (refused) throw new Error(refused);
      throw new Error('unknown account');
    },
  };
}

/**
 * SendTransaction's args (internal/ethapi/api.go) for an account the node signs for: setDefaults, then
 * SubmitTransaction's checkTxFee of the transaction toTransaction makes, as the args the engine sends unchanged (the
 * type toTransaction picks: a fee cap makes a dynamic-fee one, else a list an access-list one, else a legacy one).
 */
export async function sendDefaults(serve: () => Serve, params: unknown): Promise<Args> {
  const args = transactionArgs(params);
  await defaultsOf(serve)(args);
  const { tx } = unsigned(args);
  const refused = checkTxFee(big(tx.maxFeePerGas ?? tx.gasPrice), big(tx.gas));
  if (refused) throw new Error(refused);
  // SendTx's pool: its floor on the tip (./min-tip.ts).
  const tip = big(tx.maxPriorityFeePerGas ?? tx.gasPrice);
  if (tip < 1n) {
    const head = (await askNode(serve, 'eth_getBlockByNumber', ['latest', false])) as { gasLimit: string };
    const priced = {
      gas: big(tx.gas),
      tip,
      feeCap: big(tx.maxFeePerGas ?? tx.gasPrice),
      ...(tx.to === null ? {} : { to: tx.to as string }),
      data: tx.input as string,
      accessList: (tx.accessList ?? []) as ListTuple[],
    };
    const underpriced = tipRefusal(priced, big(head.gasLimit));
    if (underpriced) throw new Error(underpriced);
  }
  return engineArgs(args);
}

/** Filled args as the engine's eth_sendTransaction takes them, for the transaction toTransaction makes of them. */
export function engineArgs(args: Args): Args {
  const { tx } = unsigned(args);
  const fees =
    tx.type === '0x2'
      ? { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }
      : { gasPrice: tx.gasPrice };
  return withoutUndefined({
    from: typeof args.from === 'string' ? args.from : ZERO_ADDRESS,
    ...(tx.to === null ? {} : { to: tx.to }),
    nonce: tx.nonce,
    gas: tx.gas,
    ...fees,
    value: tx.value,
    input: tx.input,
    accessList: tx.type === '0x0' ? undefined : tx.accessList,
  });
}

const FEE_NAMES = [
  ['gasprice', 'gasPrice'],
  ['maxfeepergas', 'maxFeePerGas'],
  ['maxpriorityfeepergas', 'maxPriorityFeePerGas'],
] as const;

const feeOrder = (args: Args) =>
  new Error(`maxFeePerGas (${args.maxfeepergas}) < maxPriorityFeePerGas (${args.maxpriorityfeepergas})`);

const withoutUndefined = (args: Args) => Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));

interface AccessTuple {
  address: string;
  storageKeys?: string[] | null;
}

/**
 * toTransaction of the filled args, unsigned (V, R and S zero, as NewTx's copy makes them), as MarshalBinary writes it
 * and as Transaction.MarshalJSON writes it (core/types/transaction_marshalling.go of libevm).
 */
export function unsigned(args: Args): { raw: string; tx: Record<string, string | null | AccessTuple[]> } {
  const to = typeof args.to === 'string' ? args.to.toLowerCase() : null;
  const input = String(args.input ?? args.data ?? '0x').toLowerCase();
  const list = ((args.accesslist ?? []) as AccessTuple[]).map(({ address, storageKeys }) => ({
    address: address.toLowerCase(),
    storageKeys: (storageKeys ?? []).map((key) => key.toLowerCase()),
  }));
  const rlpList = list.map(({ address, storageKeys }) => [bytesOf(address), storageKeys.map(bytesOf)]);
  const [nonce, gas, value] = [big(args.nonce), big(args.gas), big(args.value)];
  const common = { nonce: quantity(nonce), to, gas: quantity(gas) };
  const end = { value: quantity(value), input };
  const zeroSignature = { v: '0x0', r: '0x0', s: '0x0' };
  let type: number;
  let fields: unknown[];
  let tx: Record<string, string | null | AccessTuple[]>;
  if (args.maxfeepergas !== undefined) {
    type = 2;
    const [chainId, tip, feeCap] = [big(args.chainid), big(args.maxpriorityfeepergas), big(args.maxfeepergas)];
    fields = [chainId, nonce, tip, feeCap, gas, bytesOf(to), value, bytesOf(input), rlpList, 0n, 0n, 0n];
    tx = {
      type: '0x2',
      chainId: quantity(chainId),
      ...common,
      gasPrice: null,
      maxPriorityFeePerGas: quantity(tip),
      maxFeePerGas: quantity(feeCap),
      ...end,
      accessList: list,
      ...zeroSignature,
      yParity: '0x0',
    };
  } else if (args.accesslist !== undefined) {
    type = 1;
    const [chainId, price] = [big(args.chainid), big(args.gasprice)];
    fields = [chainId, nonce, price, gas, bytesOf(to), value, bytesOf(input), rlpList, 0n, 0n, 0n];
    tx = {
      type: '0x1',
      chainId: quantity(chainId),
      ...common,
      gasPrice: quantity(price),
      maxPriorityFeePerGas: null,
      maxFeePerGas: null,
      ...end,
      accessList: list,
      ...zeroSignature,
      yParity: '0x0',
    };
  } else {
    type = 0;
    const price = big(args.gasprice);
    fields = [nonce, price, gas, bytesOf(to), value, bytesOf(input), 0n, 0n, 0n];
    tx = { type: '0x0', ...common, gasPrice: quantity(price), maxPriorityFeePerGas: null, maxFeePerGas: null, ...end };
    Object.assign(tx, zeroSignature);
  }
  const body = RLP.encode(fields as Parameters<typeof RLP.encode>[0]);
  const raw = type === 0 ? body : Buffer.concat([Buffer.from([type]), body]);
  tx.hash = `0x${Buffer.from(keccak_256(raw)).toString('hex')}`;
  return { raw: `0x${Buffer.from(raw).toString('hex')}`, tx };
}
