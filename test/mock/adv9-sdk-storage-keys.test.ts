/**
 * eth_getProof's storage keys as coreth decodes them: any hex string of at most 32 bytes, odd length too, each
 * answered in the form it came in (a 32-byte key as it was, a shorter one as a QUANTITY).
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
  // hexutil.EncodeBig(key) when the input was not 32 bytes ("0x0", "0x1"). The mock hands the keys to its engine,
  // which decodes them as 32-byte B256: -32602 "odd number of digits" for "0x0", "invalid string length" for "0x01".
  it.fails('takes a short storage key ("0x0", "0x01") and answers it as a QUANTITY with the same proof', async () => {
    const full = (await proof([SLOT_0])).result as AccountResult;
    const short = await proof(['0x0', '0x01']);
    expect(short.error).toBeUndefined();
    const [zero, one] = (short.result as AccountResult).storageProof;
    expect(zero).toEqual({ ...full.storageProof[0], key: '0x0' });
    expect(one!.key).toBe('0x1');
    expect(one!.value).toBe('0x0');
  });

  // Same decodeHash: more than 32 bytes is "hex string too long, want at most 32 bytes", an error GetProof returns
  // as is (-32000, the server's code for a plain error). The mock answers the engine's -32602 "invalid string length at
  // line 1 column 174", with the engine's own request echoed in `data`.
  it.fails("refuses a key of more than 32 bytes with decodeHash's message", async () => {
    const answer = await proof([`0x${'01'.repeat(33)}`]);
    expect(answer.error).toEqual({ code: -32000, message: 'hex string too long, want at most 32 bytes' });
  });
});
