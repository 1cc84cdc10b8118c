/**
 * Storage keys as coreth decodes them (graft/coreth/internal/ethapi/api.go decodeHash, v1.14.2): a string, "0x" or
 * "0X" stripped, an odd length left-padded with "0", at most 32 bytes. eth_getProof answers each key in the form it
 * came in (a 32-byte key as it was, a shorter one as a QUANTITY); eth_getStorageAt wraps a refusal as "unable to decode
 * storage key: ...". The engine alone decodes a key its own way and answers in its own words.
 */
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

type StorageResult = { key: string; value: string; proof: string[] };
type AccountResult = { storageHash: string; storageProof: StorageResult[] };

let node: RunningMockNode;
let contract: Hex;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  const { pub, wallet } = cClients(node.url);
  const deploy = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
  contract = (await pub.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
  const set = await wallet.writeContract({ address: contract, abi: ABI, functionName: 'set', args: [7n] });
  await pub.waitForTransactionReceipt({ hash: set });
});
afterAll(() => node?.close());

const proof = (keys: string[]) => callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_getProof', [contract, keys, 'latest']);
const SLOT_0 = `0x${'00'.repeat(32)}`;

describe('eth_getProof storage keys', () => {
  it("viem's getProof proves slot 0 with its 32-byte key, the value set() stored", async () => {
    const { pub } = cClients(node.url);
    const answer = await pub.getProof({ address: contract, storageKeys: [SLOT_0 as Hex] });
    expect(answer.storageProof[0]!.key).toBe(SLOT_0);
    expect(answer.storageProof[0]!.value).toBe(7n);
    expect(answer.storageProof[0]!.proof.length).toBeGreaterThan(0);
  });

  // graft/coreth/internal/ethapi/api.go (v1.14.2) GetProof takes `storageKeys []string` and decodes each with
  // decodeHash, which strips 0x, left-pads an odd length with "0" and takes up to 32 bytes; the answer's key is
  // hexutil.EncodeBig(key) when the input was not 32 bytes ("0x0", "0x1"). The engine alone
  // decodes them as 32-byte B256: -32602 "odd number of digits" for "0x0", "invalid string length" for "0x01".
  it('takes a short storage key ("0x0", "0x01") and answers it as a QUANTITY with the same proof', async () => {
    const full = (await proof([SLOT_0])).result as AccountResult;
    const short = await proof(['0x0', '0x01']);
    expect(short.error).toBeUndefined();
    const [zero, one] = (short.result as AccountResult).storageProof;
    expect(zero).toEqual({ ...full.storageProof[0], key: '0x0' });
    expect(one!.key).toBe('0x1');
    expect(one!.value).toBe('0x0');
  });

  // Same decodeHash: more than 32 bytes is "hex string too long, want at most 32 bytes", an error GetProof returns
  // as is (-32000, the server's code for a plain error). The engine alone answers its -32602 "invalid string length at
  // line 1 column 174", with the engine's own request echoed in `data`.
  it("refuses a key of more than 32 bytes with decodeHash's message", async () => {
    const answer = await proof([`0x${'01'.repeat(33)}`]);
    expect(answer.error).toEqual({ code: -32000, message: 'hex string too long, want at most 32 bytes' });
  });
});

const storageAt = (slot: string) => callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_getStorageAt', [contract, slot, 'latest']);
const WORD_7 = `0x${'7'.padStart(64, '0')}`;

describe('eth_getStorageAt slots', () => {
  it('reads slot 0 written short, unprefixed or zero-padded', async () => {
    for (const slot of ['0x0', '0', '0x00000', SLOT_0]) expect((await storageAt(slot)).result).toBe(WORD_7);
  });

  // decodeHash strips "0X" as well as "0x". The engine alone answers -32602 "Storage slot argument must be a valid
  // hexadecimal, got '0X0' at line 1 column 113", with the engine's request echoed in `data`.
  it('reads a slot written with an upper-case 0X prefix', async () => {
    expect((await storageAt('0X0')).result).toBe(WORD_7);
  });

  // GetStorageAt: fmt.Errorf("unable to decode storage key: %s", err), a plain error (-32000), with decodeHash's
  // "hex string too long, want at most 32 bytes" and "hex string invalid". The engine alone answers -32602 with the engine's
  // "Storage slot argument must have a length of at most 66 ..." / "... must be a valid hexadecimal, got '0xzz' ...".
  it("refuses a slot of more than 32 bytes, or not hex, in GetStorageAt's words", async () => {
    expect((await storageAt(`0x${'01'.repeat(33)}`)).error).toEqual({
      code: -32000,
      message: 'unable to decode storage key: hex string too long, want at most 32 bytes',
    });
    expect((await storageAt('0xzz')).error).toEqual({
      code: -32000,
      message: 'unable to decode storage key: hex string invalid',
    });
  });
});
