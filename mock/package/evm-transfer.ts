/**
 * An EVM transfer on the C-Chain for the wallet: an EIP-1559 transaction encoded (@ethereumjs/rlp, as the C-Chain's
 * blocks are), hashed (keccak-256) and signed (secp256k1, low S, with avalanchejs' signer), sent with
 * `eth_sendRawTransaction` to `/ext/bc/C/rpc`, and its receipt awaited. Built here rather than with viem, which the
 * mock's package does not ship.
 */
import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { avalanche } from '../shared/avalanche.ts';

type Rlp = Uint8Array | Rlp[];

/** A big-endian integer without leading zeros (0: no bytes), as RLP takes integers. */
function integer(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0);
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
}

/** One Ethereum JSON-RPC call on the node's C-Chain; its error message is thrown as it came. */
export async function ethCall(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(`${url}/ext/bc/C/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`C-Chain ${method}: ${answer.error.message}`);
  return answer.result;
}

const quantity = (value: bigint) => `0x${value.toString(16)}`;

/**
 * Sends `value` wei from the key's EVM address `from` to `to` (`0x…`): chain ID, nonce, gas and fees from the node
 * (twice the base fee plus the suggested tip, as wallets do), signed and sent; the transaction's hash once its receipt
 * says it succeeded.
 */
export async function sendEvmTransfer(
  url: string,
  key: Uint8Array,
  from: string,
  to: string,
  value: bigint,
  waitMs: number,
): Promise<string> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(to)) throw new Error(`${JSON.stringify(to)} is not a C-Chain (0x…) address`);
  const big = async (method: string, params: unknown[] = []) => BigInt((await ethCall(url, method, params)) as string);
  const chainID = await big('eth_chainId');
  const nonce = await big('eth_getTransactionCount', [from, 'pending']);
  const tip = await big('eth_maxPriorityFeePerGas');
  const maxFee = 2n * (await big('eth_baseFee')) + tip;
  const gas = await big('eth_estimateGas', [{ from, to, value: quantity(value) }]);
  const fields: Rlp[] = [chainID, nonce, tip, maxFee, gas].map(integer);
  fields.push(Buffer.from(to.slice(2), 'hex'), integer(value), new Uint8Array(0), []);
  const hash = keccak_256(Buffer.concat([Uint8Array.of(2), RLP.encode(fields)]));
  const signature = await avalanche().secp256k1.signHash(hash, key);
  const [r, s, yParity] = [signature.subarray(0, 32), signature.subarray(32, 64), signature[64]!];
  const signed = RLP.encode([...fields, integer(BigInt(yParity)), integer(toBigInt(r)), integer(toBigInt(s))]);
  const raw = `0x02${Buffer.from(signed).toString('hex')}`;
  const txHash = (await ethCall(url, 'eth_sendRawTransaction', [raw])) as string;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const receipt = (await ethCall(url, 'eth_getTransactionReceipt', [txHash])) as { status: string } | null;
    if (receipt?.status === '0x1') return txHash;
    if (receipt) throw new Error(`C-Chain tx ${txHash} failed (status ${receipt.status})`);
    if (Date.now() > deadline) throw new Error(`C-Chain tx ${txHash} still pending: mine a block`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const toBigInt = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
