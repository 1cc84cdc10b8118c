/**
 * An atomic C → P export issued twice while it waits in the C-Chain's pool (automine off). coreth's avax.issueTx
 * (graft/coreth/plugin/evm/atomic/vm/api.go IssueTx) adds it with Mempool.AddLocalTx and ignores ErrAlreadyKnown
 * (`if err != nil && !errors.Is(err, txpool.ErrAlreadyKnown) { return err }`): the second issue answers the same
 * txID, and the tx stays Processing until a block takes it, once.
 */
import { evm, utils } from '@avalabs/avalanchejs';
import { sha256 } from '@noble/hashes/sha2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../../mock/node.ts';
import { cClients, exportEwoqToP } from '../../mock/c-clients.ts';
import { callRpc } from '../../support/rpc.ts';

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const status = async (txID: string) =>
  (await callRpc(`${node.url}/ext/bc/C/avax`, 'avax.getAtomicTxStatus', { txID })).result;

describe('an atomic export issued again while pending', () => {
  it('answers the same txID, stays Processing, and is accepted once', async () => {
    const { pub, account } = cClients(node.url);
    const balance = await pub.getBalance({ address: account.address });
    await node.dev.setAutomine({ enabled: false });
    const tx = await exportEwoqToP(node.url);
    const txID = utils.base58check.encode(sha256(tx.toBytes()));
    expect(await status(txID)).toMatchObject({ status: 'Processing' });

    const again = await new evm.EVMApi(node.url).issueSignedTx(tx).then(
      (answer) => ({ txID: answer.txID }),
      (error: Error) => ({ error: error.message }),
    );
    expect(again).toEqual({ txID });
    expect(await status(txID)).toMatchObject({ status: 'Processing' });

    await node.dev.mine({ chain: 'C', blocks: 1 });
    expect(await status(txID)).toMatchObject({ status: 'Accepted' });
    const exported = balance - (await pub.getBalance({ address: account.address }));
    // One export's worth left the account: 1 AVAX and its fee, not twice that.
    expect(exported).toBeGreaterThan(10n ** 18n);
    expect(exported).toBeLessThan(2n * 10n ** 18n);
  });
});
