/**
 * The P-Chain's dynamic fee as a wallet meets it: avalanchejs 5.2.0 reads platform.getFeeConfig and getFeeState over
 * HTTP, its fee calculator builds a tx burning exactly the minimum, and the mock takes it; a tx built at a lower
 * price is refused with the node's text, one at a higher price is taken and burns what it pays.
 */
import { addTxSignatures, pvm, type pvmSerial, TransferableOutput, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { pRefusal } from './refusal.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

const AVAX = 1_000_000_000n;
const recipient = new Uint8Array(20).fill(0x42);

let node: RunningMockNode;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
});
afterAll(() => node?.close());

const api = () => new pvm.PVMApi(node.url);
const bech = (addr: Uint8Array) => `P-${utils.formatBech32(node.world.network.hrp, addr)}`;

/** A BaseTx paying `amount` to the recipient at `price`, signed; and what it burns (inputs minus outputs). */
async function baseTx(price: (p: bigint) => bigint, amount = AVAX) {
  const context = sdkContext(node.world);
  const feeState = await api().getFeeState();
  const { utxos } = await api().getUTXOs({ addresses: [bech(ewoq)] });
  const tx = pvm.newBaseTx(
    {
      feeState: { ...feeState, price: price(feeState.price) },
      fromAddressesBytes: [ewoq],
      utxos,
      outputs: [TransferableOutput.fromNative(context.avaxAssetID, amount, [recipient])],
    },
    context,
  );
  await addTxSignatures({ unsignedTx: tx, privateKeys: [EWOQ] });
  const inputs = tx.utxos.reduce((sum, u) => sum + (u.output as unknown as { amount(): bigint }).amount(), 0n);
  const outputs = (tx.getTx() as pvmSerial.BaseTx).baseTx.outputs.reduce(
    (sum, o) => sum + (o.output as unknown as { amount(): bigint }).amount(),
    0n,
  );
  const fee = pvm.calculateFee(tx.getTx(), sdkContext(node.world).platformFeeConfig.weights, price(feeState.price));
  return { tx, burned: inputs - outputs, fee, price: price(feeState.price) };
}

const issue = (tx: Awaited<ReturnType<typeof baseTx>>['tx']) =>
  callRpc(`${node.url}/ext/bc/P`, 'platform.issueTx', {
    tx: utils.bufferToHex(utils.addChecksum(tx.getSignedTx().toBytes())),
    encoding: 'hex',
  });

describe('P-Chain dynamic fee with avalanchejs', () => {
  it('getFeeConfig over HTTP is the Context the fee calculator needs', async () => {
    const config = await api().getFeeConfig();
    expect(config).toEqual(sdkContext(node.world).platformFeeConfig);
  });

  it('takes a tx burning exactly the calculator fee at getFeeState price', async () => {
    const { tx, burned, fee } = await baseTx((p) => p);
    expect(fee).toBeGreaterThan(0n);
    expect(burned).toBe(fee);
    const ok = await issue(tx);
    expect(ok.error).toBeUndefined();
    expect((await api().getTxStatus({ txID: String(ok.result!.txID) })).status).toBe('Committed');
  });

  it('refuses a tx that burns one price step short, with the node text', async () => {
    const state = await api().getFeeState();
    const { tx, burned } = await baseTx((p) => p - 1n);
    const gas = (await baseTx((p) => p)).fee / state.price;
    expect(burned).toBe(gas * (state.price - 1n));
    const refused = await issue(tx);
    expect(refused.error?.message).toMatch(pRefusal(/insufficient unlocked funds: needs \d+ more \w+/));
  });

  it('takes a tx that overpays, burning all it pays', async () => {
    const before = await api().getBalance({ addresses: [bech(ewoq)] });
    const { tx, burned, fee } = await baseTx((p) => p * 3n);
    expect(burned).toBe(fee);
    const ok = await issue(tx);
    expect(ok.error).toBeUndefined();
    const after = await api().getBalance({ addresses: [bech(ewoq)] });
    expect(before.balance - after.balance).toBe(AVAX + burned);
  });
});
