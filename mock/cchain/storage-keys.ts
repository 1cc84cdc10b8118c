/**
 * Storage keys as coreth reads them (internal/ethapi/api.go decodeHash): a string, `0x` or `0X` stripped, an odd
 * length left-padded with "0", at most 32 bytes. The engine takes only its own spelling, so each key reaches it as a
 * 32-byte word; eth_getProof's answer gives each key back as coreth writes it (GetProof's outputKey), and the hashes
 * and proofs of what the state does not hold as GetProof reads them: StateDB.GetCodeHash and GetStorageRoot of an
 * account it does not hold are the zero hash (no empty account outlives EIP-158's clean-up), and an account without
 * a storage trie (the empty root, or none) gets an empty proof for each key, where the engine proves the empty trie.
 */

/** decodeHash: the key as a 32-byte word (64 lower-case digits) and the bytes written, or its error. */
function decodeHash(text: string): { word: string; length: number } | { error: string } {
  let digits = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (digits.length % 2 === 1) digits = `0${digits}`;
  if (!/^[0-9a-fA-F]*$/.test(digits)) return { error: 'hex string invalid' };
  if (digits.length > 64) return { error: 'hex string too long, want at most 32 bytes' };
  return { word: digits.toLowerCase().padStart(64, '0'), length: digits.length / 2 };
}

/** The engine's params and what coreth answers of the keys, for eth_getStorageAt and eth_getProof. */
export interface StorageKeys {
  /** coreth's error text for the first key decodeHash refuses (GetStorageAt wraps it, GetProof does not). */
  refused?: string;
  params: unknown[];
  /** The engine's answer (`{"result":…}` or `{"error":…}`) with the keys written as coreth writes them. */
  answer(engine: string): string;
}

/** GetProof's outputKey: a 32-byte key as its word, any other as hexutil.EncodeBig of it. */
const outputKey = (word: string, length: number) =>
  length === 32 ? `0x${word}` : `0x${BigInt(`0x${word}`).toString(16)}`;

const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
const ZERO_HASH = `0x${'0'.repeat(64)}`;

interface AccountResult {
  nonce: string;
  balance: string;
  codeHash: string;
  storageHash: string;
  storageProof?: Array<{ key: string; proof: string[] }>;
}

/** The keys of eth_getStorageAt (one, at 1) or eth_getProof (a list, at 1) decoded; undefined for other methods. */
export function storageKeys(method: string, params: unknown): StorageKeys | undefined {
  if ((method !== 'eth_getStorageAt' && method !== 'eth_getProof') || !Array.isArray(params)) return undefined;
  const given: unknown = params[1];
  const list = method === 'eth_getProof' ? given : [given];
  if (!Array.isArray(list) || !list.every((key) => typeof key === 'string')) return undefined;
  const decoded = list.map(decodeHash);
  const failed = decoded.find((key) => 'error' in key);
  const keys = decoded.filter((key) => 'word' in key);
  const words = keys.map(({ word }) => `0x${word}`);
  const engineParams = [...params];
  engineParams[1] = method === 'eth_getProof' ? words : words[0];
  return {
    ...(failed && 'error' in failed
      ? { refused: method === 'eth_getProof' ? failed.error : `unable to decode storage key: ${failed.error}` }
      : {}),
    params: engineParams,
    answer(engine) {
      if (method !== 'eth_getProof') return engine;
      const parsed = JSON.parse(engine) as { result?: AccountResult };
      const account = parsed.result;
      const proofs = account?.storageProof;
      if (!account || !proofs) return engine;
      const held =
        BigInt(account.nonce) !== 0n ||
        BigInt(account.balance) !== 0n ||
        account.codeHash !== EMPTY_CODE_HASH ||
        account.storageHash !== EMPTY_ROOT;
      if (!held) account.codeHash = account.storageHash = ZERO_HASH;
      const noTrie = account.storageHash === EMPTY_ROOT || account.storageHash === ZERO_HASH;
      proofs.forEach((proof, i) => {
        const key = keys[i];
        if (key) proof.key = outputKey(key.word, key.length);
        if (noTrie) proof.proof = [];
      });
      return JSON.stringify(parsed);
    },
  };
}
