/**
 * The dev node's tools beyond snapshots and time: impersonation, dry runs and state dumped and loaded over RPC, each
 * through the generated DevClient against a real mock node on loopback, and in process.
 */
import {
  type UnsignedTx,
  TransferableOutput,
  Utxo,
  addTxSignatures,
  avm,
  pvm,
  secp256k1,
  utils,
} from '@avalabs/avalanchejs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bech32Encode } from '../../generators/formats.ts';
import { gasPrice } from '../../mock/world/fees.ts';
import { PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import type { UtxoChain } from '../../mock/world/types.ts';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const STRANGER_KEY = new Uint8Array(32).fill(7);
const stranger = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(STRANGER_KEY));
const recipient = new Uint8Array(20).fill(9);

let node: RunningMockNode & { x: XChainClient; p: PChainClient };
const start = async (options: Parameters<typeof startMockNode>[0] = {}) => {
  const started = await startMockNode({ port: 0, world: { accounts: 0 }, ...options });
  return Object.assign(started, {
    x: new XChainClient({ baseUrl: started.url }),
    p: new PChainClient({ baseUrl: started.url }),
  });
};
beforeEach(async () => {
  node = await start();
});
afterEach(() => node.close());

const world = () => node.world;
const manager = (chain: UtxoChain) => utils.getManagerForVM(chain === 'X' ? 'AVM' : 'PVM');
const utxosOf = (chain: UtxoChain, owner: Uint8Array) =>
  world()
    .utxosOf(chain, hex(owner))
    .map((u) => manager(chain).unpack(u.bytes, Utxo));
const balanceOf = (chain: UtxoChain, owner: Uint8Array) =>
  world()
    .utxosOf(chain, hex(owner))
    .reduce((sum, u) => sum + u.amount, 0n);
const pay = (amount: bigint, to = recipient) => [
  TransferableOutput.fromNative(world().network.avaxAssetID, amount, [to]),
];
const xSend = (from: Uint8Array, amount: bigint) =>
  avm.newBaseTx(sdkContext(world()), [from], utxosOf('X', from), pay(amount));
const pSend = (from: Uint8Array, amount: bigint) => {
  const fee = world().feeState.get();
  const f = world().config.fee;
  return pvm.newBaseTx(
    {
      feeState: {
        capacity: fee.capacity,
        excess: fee.excess,
        price: gasPrice(f.minPrice, fee.excess, f.excessConversionConstant),
        timestamp: new Date().toISOString(),
      },
      fromAddressesBytes: [from],
      utxos: utxosOf('P', from),
      outputs: pay(amount),
    },
    sdkContext(world()),
  );
};
const signed = async (unsigned: UnsignedTx, key = EWOQ) => {
  await addTxSignatures({ unsignedTx: unsigned, privateKeys: [key] });
  return unsigned.getSignedTx().toBytes();
};
const asHex = (bytes: Uint8Array) => utils.bufferToHex(utils.addChecksum(bytes));
const address = (chain: UtxoChain, bytes: Uint8Array) => `${chain}-${bech32Encode(world().network.hrp, bytes)}`;

async function fundStranger(chain: UtxoChain, amount: bigint) {
  await node.dev.fund({ address: address(chain, stranger), amount: String(amount) });
}

describe('dev.impersonate', () => {
  it('lets an unsigned spend of an address pass on X and P, and only while impersonated', async () => {
    await fundStranger('X', 5_000_000_000n);
    await fundStranger('P', 5_000_000_000n);
    const unsignedX = () => xSend(stranger, 1_000_000_000n).getSignedTx().toBytes();
    await expect(node.x.issueTx({ tx: asHex(unsignedX()) })).rejects.toThrow(/signature|recover/);

    await node.dev.impersonate({ address: address('P', stranger) });
    const { txID } = await node.x.issueTx({ tx: asHex(unsignedX()) });
    expect(world().txs.get(txID)?.status).toBe('Accepted');
    expect(balanceOf('X', recipient)).toBe(1_000_000_000n);
    const pTx = pSend(stranger, 1_000_000_000n).getSignedTx().toBytes();
    await node.p.issueTx({ tx: asHex(pTx) });
    expect(balanceOf('P', recipient)).toBe(1_000_000_000n);

    await node.dev.stopImpersonating({ address: address('X', stranger) });
    await expect(node.x.issueTx({ tx: asHex(unsignedX()) })).rejects.toThrow(/signature|recover/);
  });

  it('still verifies everything but the signatures: a second spend of the same UTXO is refused', async () => {
    await fundStranger('X', 2_000_000_000n);
    await node.dev.impersonate({ address: address('X', stranger) });
    const first = xSend(stranger, 1_000_000_000n).getSignedTx().toBytes();
    const second = xSend(stranger, 500_000_000n).getSignedTx().toBytes();
    await node.x.issueTx({ tx: asHex(first) });
    const balance = balanceOf('X', stranger);
    await expect(node.x.issueTx({ tx: asHex(second) })).rejects.toThrow(/missing|not found|consumed/i);
    expect(balanceOf('X', stranger)).toBe(balance);
  });

  it('refuses an address of another network or chain, changing nothing', async () => {
    await expect(node.dev.impersonate({ address: `X-${bech32Encode('fuji', stranger)}` })).rejects.toThrow(
      /is not on this network/,
    );
    expect(world().impersonated.size).toBe(0);
  });
});

describe('dev.simulateTx', () => {
  it('answers what the issue would do, byte for byte in fee and effects, and changes nothing', async () => {
    const bytes = await signed(pSend(ewoq, 3_000_000_000n));
    const before = { tip: world().tip('P').id, utxos: world().utxos.P.size, time: world().time.get() };
    const simulation = await node.dev.simulateTx({ tx: asHex(bytes), chain: 'P' });
    expect({ tip: world().tip('P').id, utxos: world().utxos.P.size, time: world().time.get() }).toEqual(before);
    expect(simulation.accepted).toBe(true);

    const ewoqBefore = balanceOf('P', ewoq);
    const { txID } = await node.p.issueTx({ tx: asHex(bytes) });
    expect(simulation.txID).toBe(txID);
    const spent = ewoqBefore - balanceOf('P', ewoq);
    expect(BigInt(simulation.fee!)).toBe(spent - 3_000_000_000n);
    expect(simulation.gas).toBeDefined();
    expect(BigInt(simulation.gas!.gas) * BigInt(simulation.gas!.gasPrice)).toBe(BigInt(simulation.fee!));
    const produced = simulation.produced.map((u) => u.utxoID).sort();
    const made = world()
      .utxosOf('P', hex(recipient))
      .concat(
        world()
          .utxosOf('P', hex(ewoq))
          .filter((u) => u.txID === txID),
      )
      .map((u) => u.key);
    expect(produced).toHaveLength(made.length);
    const changes = Object.fromEntries(simulation.balanceChanges.map((c) => [c.address, BigInt(c.change)]));
    expect(changes[address('P', recipient)]).toBe(3_000_000_000n);
    expect(changes[address('P', ewoq)]).toBe(-spent);
  });

  it('answers the refusal issueTx would give, and a second real issue is unaffected', async () => {
    const bytes = await signed(xSend(ewoq, 1_000_000_000n), STRANGER_KEY);
    const simulation = await node.dev.simulateTx({ tx: asHex(bytes), chain: 'X' });
    expect(simulation.accepted).toBe(false);
    const refusal = await node.x.issueTx({ tx: asHex(bytes) }).catch((error: Error) => error.message);
    expect(refusal).toBe(simulation.error);
    const good = await signed(xSend(ewoq, 1_000_000_000n));
    expect((await node.dev.simulateTx({ tx: asHex(good), chain: 'X' })).accepted).toBe(true);
    await node.x.issueTx({ tx: asHex(good) });
    expect(balanceOf('X', recipient)).toBe(1_000_000_000n);
  });

  it('leaves a pooled transaction pooled (manual mining) and sees the conflict with it', async () => {
    await node.dev.setAutomine({ enabled: false });
    const first = await signed(xSend(ewoq, 1_000_000_000n));
    await node.x.issueTx({ tx: asHex(first) });
    expect(node.state.engine.pending('X')).toBe(1);
    const second = await signed(xSend(ewoq, 2_000_000_000n));
    const simulation = await node.dev.simulateTx({ tx: asHex(second), chain: 'X' });
    expect(simulation.accepted).toBe(false);
    expect(node.state.engine.pending('X')).toBe(1);
    await node.dev.mine({ chain: 'X' });
    expect(balanceOf('X', recipient)).toBe(1_000_000_000n);
  });
});

describe('dev.dumpState and dev.loadState', () => {
  it('carry a world to another node of the network, and a snapshot from before reverts the load', async () => {
    await node.x.issueTx({ tx: asHex(await signed(xSend(ewoq, 1_000_000_000n))) });
    const { state } = await node.dev.dumpState();
    const other = await start();
    try {
      const { snapshotID } = await other.dev.snapshot();
      await other.dev.loadState({ state });
      expect(other.world.tip('X').id).toBe(world().tip('X').id);
      expect(other.world.utxosOf('X', hex(recipient)).map((u) => u.key)).toEqual(
        world()
          .utxosOf('X', hex(recipient))
          .map((u) => u.key),
      );
      expect((await other.dev.dumpState()).state).toBe(state);
      await other.dev.revert({ snapshotID });
      expect(other.world.utxosOf('X', hex(recipient))).toHaveLength(0);
      expect(other.world.tip('X').height).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('refuses a state that is not one, or of another network, and changes nothing', async () => {
    const { state: before } = await node.dev.dumpState();
    await expect(node.dev.loadState({ state: '0xdeadbeef' })).rejects.toThrow(/not a dumped state/);
    await expect(node.dev.loadState({ state: '{"version":1}' })).rejects.toThrow(/not a world saved by this mock/);
    const fuji = await start({ world: { network: 'fuji', accounts: 0 } });
    try {
      const { state } = await fuji.dev.dumpState();
      await expect(node.dev.loadState({ state })).rejects.toThrow(/of the fuji network; this node serves local/);
    } finally {
      await fuji.close();
    }
    expect((await node.dev.dumpState()).state).toBe(before);
  });
});
