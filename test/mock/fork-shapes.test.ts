/**
 * The fork reads a real node's answer shapes: the node's documented examples (AvalancheGo's service.md, copied into
 * test/fixtures/fork/; Mainnet and Fuji answers of several years, not one node's state, so they test the reading of
 * each answer, not a fork start) as the world's records.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hexBytes, l1ValidatorFrom, ownerFrom, stakerFrom, utxoFrom } from '../../mock/fork/convert.ts';
import { avalanche, forReading } from '../../mock/shared/avalanche.ts';

type Sample = { response: { result: Record<string, unknown> }; additional_examples?: Sample[] };
const sample = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/fork', `${name}.json`), 'utf8')) as Sample;
const SUBNET = '2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r';

describe("a node's answers as the fork reads them", () => {
  it('reads a Primary Network validator with its owners, fee, signer-less key and potential reward', () => {
    const [v] = sample('platform.getCurrentValidators').response.result.validators as Record<string, unknown>[];
    const staker = stakerFrom(v!, SUBNET);
    expect(staker).toMatchObject({
      txID: '2NNkpYTGfTFLSGXJcHtVv6drwVU2cczhmjK2uhvwDyxwsjzZMm',
      nodeID: 'NodeID-5mb46qkSBj81k9g9e4VFjGGSbaaSLFRzD',
      startTime: 1600368632n,
      endTime: 1602960455n,
      weight: 2000000000000n,
      delegationFee: 100_000,
      potentialReward: 117431493426n,
    });
    // P-avax18jma8… is the ewoq key's address: its short ID.
    expect(staker.rewardOwner).toEqual({
      locktime: 0n,
      threshold: 1,
      addresses: ['3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c'],
    });
    expect(staker.signer).toBeUndefined();
  });

  it('reads an L1 validator with its balance and owners', () => {
    const l1 = sample('platform.getCurrentValidators').additional_examples![0]!.response.result.validators as Record<
      string,
      unknown
    >[];
    const record = l1ValidatorFrom(l1[0]!, SUBNET);
    expect(record).toMatchObject({
      validationID: '2wTscvX3JUsMbZHFRd9t8Ywz2q9j2BmETg8cTvgUHgawjbSvZX',
      weight: 20n,
      balance: 8780477952n,
      startTime: 1734034648n,
      minNonce: 0n,
    });
    expect(record.remainingBalanceOwner.addresses).toHaveLength(1);
  });

  it("reads a subnet's control keys written as cb58 short IDs, as older releases wrote them", () => {
    const [subnet] = sample('platform.getSubnets').response.result.subnets as Record<string, unknown>[];
    const owner = ownerFrom({ addresses: subnet!.controlKeys, threshold: subnet!.threshold, locktime: 0 });
    expect(owner?.threshold).toBe(2);
    expect(owner?.addresses.every((a) => /^[0-9a-f]{40}$/.test(a))).toBe(true);
  });

  it("reads the node's hex UTXOs as avalanchejs decodes them", () => {
    const { Utxo, utils } = avalanche();
    for (const [name, chain] of [
      ['avm.getUTXOs', 'X'],
      ['platform.getUTXOs', 'P'],
    ] as const) {
      const utxos = sample(name).response.result.utxos as string[];
      expect(utxos.length).toBeGreaterThan(0);
      for (const text of utxos) {
        const bytes = hexBytes(text);
        const read = utxoFrom(chain, bytes);
        const decoded = utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM').unpack(forReading(bytes), Utxo);
        expect(read.txID).toBe(decoded.utxoId.txID.toString());
        expect(read.outputIndex).toBe(decoded.utxoId.outputIdx.value());
        expect(read.assetID).toBe(decoded.assetId.toString());
        let output = decoded.output as { _type: string; amount?: () => bigint; transferOut?: unknown };
        if (output._type === 'pvm.StakeableLockOut') output = output.transferOut as typeof output;
        if (output._type === 'secp256k1fx.TransferOutput') expect(read.amount).toBe(output.amount!());
      }
    }
  });
});
