/**
 * An atomic tx issued to a C-Chain whose engine never started is verified against the state the engine would start
 * from (mock/cchain/genesis-view.ts): a refusal answers as a node whose engine runs answers it, word for word, and
 * starts no engine; a valid tx is accepted as there. Under the fee rules of the newest release and of one before
 * Fortuna (ACP-176), whose base fees differ.
 */
import { addTxSignatures, evm, secp256k1, utils, type Common } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EWOQ, ewoq, sdkContext } from './sdk-world.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

const AVAX = 1_000_000_000n;
const WEI = 1_000_000_000n;

describe.each([
  ['the newest release', undefined],
  ['v1.12.1 (before Fortuna)', 'v1.12.1'],
])('an atomic tx on a C-Chain not yet started, %s', (_, nodeVersion) => {
  let fresh: RunningMockNode;
  let started: RunningMockNode;
  beforeAll(async () => {
    const start = () => startMockNode({ port: 0, world: { network: 'local', accounts: 0 }, nodeVersion });
    [fresh, started] = await Promise.all([start(), start()]);
    expect((await callRpc(`${started.url}/ext/bc/C/rpc`, 'eth_blockNumber', [])).result).toBe('0x0');
  });
  afterAll(() => Promise.all([fresh?.close(), started?.close()]));

  const issue = async (node: RunningMockNode, unsigned: Common.UnsignedTx, keys: Uint8Array[]) => {
    await addTxSignatures({ unsignedTx: unsigned, privateKeys: keys });
    const tx = utils.bufferToHex(utils.addChecksum(unsigned.getSignedTx().toBytes()));
    return callRpc(`${node.url}/ext/bc/C/avax`, 'avax.issueTx', { tx, encoding: 'hex' });
  };
  const engineStarted = (node: RunningMockNode) => node.state.cChain.loaded?.chain.started ?? false;

  it('is refused as by a started engine, without starting one, and a valid one is accepted alike', async () => {
    // Built in process: avalanchejs' getContextFromURI asks for a method v1.12.1 does not serve.
    const ctx = sdkContext(fresh.world) as Parameters<typeof evm.newImportTxFromBaseFee>[0];
    const secret = secp256k1.randomPrivateKey();
    const short = secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(secret));
    const owner = `C-${utils.formatBech32(ctx.hrp, short)}`;
    for (const node of [fresh, started]) await node.dev.fund({ address: owner, amount: String(AVAX) });
    const { utxos } = await new evm.EVMApi(fresh.url).getUTXOs({ addresses: [owner], sourceChain: 'X' });
    const baseFee = await new evm.EVMApi(started.url).getBaseFee();
    const to = new Uint8Array(20).fill(7);
    const importPaying = (feePerGas: bigint, source = ctx.xBlockchainID) =>
      evm.newImportTxFromBaseFee(ctx, to, [short], utxos, source, feePerGas);
    const ewoqEvm = secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(EWOQ));
    const exportFrom = (from: Uint8Array, feePerGas: bigint, nonce: bigint) =>
      evm.newExportTxFromBaseFee(ctx, feePerGas, AVAX, ctx.pBlockchainID, from, [ewoq], nonce);
    const under = baseFee / WEI > 0n ? baseFee / WEI - 1n : 0n;
    const refused: Array<[() => Common.UnsignedTx, Uint8Array, RegExp]> = [
      [() => importPaying(0n), secret, /^import tx flow check failed due to: insufficient funds$/],
      [() => importPaying(under), secret, /^import tx flow check failed due to: insufficient funds$/],
      [() => importPaying(1000n, ctx.pBlockchainID), secret, /^failed to fetch import UTXOs from .* not found$/],
      [
        () => exportFrom(secp256k1.publicKeyToEthAddress(secp256k1.getPublicKey(secret)), 1000n, 0n),
        secret,
        /^insufficient funds$/,
      ],
      [() => exportFrom(ewoqEvm, 1000n, 5n), EWOQ, /^invalid nonce$/],
      [() => exportFrom(ewoqEvm, under, 0n), EWOQ, /^export tx flow check failed due to: insufficient funds$/],
    ];
    for (const [build, key, message] of refused) {
      const [answer, engine] = [await issue(fresh, build(), [key]), await issue(started, build(), [key])];
      expect(answer.error?.message).toMatch(message);
      expect(answer).toEqual(engine);
    }
    expect(engineStarted(fresh)).toBe(false);

    const paying = (baseFee + WEI - 1n) / WEI;
    const [accepted, engine] = [
      await issue(fresh, importPaying(paying), [secret]),
      await issue(started, importPaying(paying), [secret]),
    ];
    expect(accepted.result?.txID).toEqual(expect.any(String));
    expect(accepted).toEqual(engine);
    expect(engineStarted(fresh)).toBe(true);
  });
});
