/**
 * The P-Chain's mempool as a wallet meets it with avalanchejs 5.2.0 and blocks built only when asked: the same tx
 * issued twice is answered its ID (vm.go:507 ignores ErrDuplicateTx), a second tx spending the same UTXOs is refused
 * with the mempool's bare error (platformvm/txs/mempool/mempool.go:113, v1.14.1's own mempool names no tx) and reads
 * Dropped with it, and the first commits when a block is built.
 */
import { addTxSignatures, pvm, TransferableOutput, type UnsignedTx, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

const AVAX = 1_000_000_000n;

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, mining: { mode: 'manual' }, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const api = () => new pvm.PVMApi(node.url);
const issue = (tx: UnsignedTx) =>
  callRpc(`${node.url}/ext/bc/P`, 'platform.issueTx', {
    tx: utils.bufferToHex(utils.addChecksum(tx.getSignedTx().toBytes())),
    encoding: 'hex',
  });

describe('P-Chain mempool with avalanchejs', () => {
  it('takes a duplicate as added, refuses a conflict with the bare error, commits the first', async () => {
    const context = sdkContext(node.world);
    const { utxos } = await api().getUTXOs({ addresses: [`P-${utils.formatBech32(context.hrp, ewoq)}`] });
    const feeState = await api().getFeeState();
    const send = async (amount: bigint) => {
      const tx = pvm.newBaseTx(
        {
          feeState,
          fromAddressesBytes: [ewoq],
          utxos,
          outputs: [TransferableOutput.fromNative(context.avaxAssetID, amount, [new Uint8Array(20).fill(9)])],
        },
        context,
      );
      await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
      return tx;
    };
    const first = await send(AVAX);
    const firstID = String((await issue(first)).result?.txID);
    expect((await issue(first)).result).toEqual({ txID: firstID });
    expect(await api().getTxStatus({ txID: firstID })).toEqual({ status: 'Processing' });

    const second = await send(2n * AVAX);
    const refused = await issue(second);
    expect(refused.error?.message).toBe("couldn't issue tx: tx conflicts with other tx");
    const { sha256 } = await import('@noble/hashes/sha2.js');
    const secondID = utils.base58check.encode(sha256(second.getSignedTx().toBytes()));
    expect(await api().getTxStatus({ txID: secondID })).toEqual({
      status: 'Dropped',
      reason: 'tx conflicts with other tx',
    });

    await node.dev.mine({ chain: 'P' });
    expect(await api().getTxStatus({ txID: firstID })).toEqual({ status: 'Committed' });
  });
});
