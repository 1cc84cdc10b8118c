/**
 * The mock as a dev node: `avalanche-mock` launch to its first answer, startMockNode in process, issueTx of a signed
 * 2-input BaseTx (median, and transactions per second), snapshot plus revert and memory on a world of 100,000 UTXOs.
 * Targets (issue 16): < 300 ms, < 50 ms, < 2 ms, >= 500/s, < 5 ms, < 200 MB. Nothing here asserts a time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransferableOutput, Utxo, addTxSignatures, avm, secp256k1, utils } from '@avalabs/avalanchejs';
import { Engine } from '../mock/engine/engine.ts';
import { buildMockPackage } from '../mock/package/build.ts';
import { startMockNode } from '../mock/package/index.ts';
import { buildWorld } from '../mock/world/genesis.ts';
import type { World } from '../mock/world/world.ts';
import { median } from './median.ts';

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

function context(w: World) {
  const f = w.config.fee;
  return {
    networkID: w.network.networkID,
    hrp: w.network.hrp,
    xBlockchainID: w.chainIDs.X,
    pBlockchainID: w.chainIDs.P,
    cBlockchainID: w.chainIDs.C,
    avaxAssetID: w.network.avaxAssetID,
    baseTxFee: w.config.txFee,
    createAssetTxFee: w.config.createAssetTxFee,
    platformFeeConfig: {
      weights: { 0: f.weights[0], 1: f.weights[1], 2: f.weights[2], 3: f.weights[3] },
      maxCapacity: f.maxCapacity,
      maxPerSecond: f.maxPerSecond,
      targetPerSecond: f.targetPerSecond,
      minPrice: f.minPrice,
      excessConversionConstant: f.excessConversionConstant,
    },
  };
}

/** One signed BaseTx per account, spending both of its X-Chain UTXOs. */
async function twoInputTxs(world: World): Promise<Uint8Array[]> {
  const manager = utils.getManagerForVM('AVM');
  const out: Uint8Array[] = [];
  for (const account of world.accounts) {
    const key = new Uint8Array(utils.base58check.decode(account.privateKey.slice('PrivateKey-'.length)));
    const from = new Uint8Array(secp256k1.publicKeyBytesToAddress(secp256k1.getPublicKey(key)));
    const two = world.utxosOf('X', account.address).slice(0, 2);
    const utxos = two.map((u) => manager.unpack(u.bytes, Utxo));
    const total = two.reduce((s, u) => s + u.amount, 0n);
    const tx = avm.newBaseTx(context(world), [from], utxos, [
      TransferableOutput.fromNative(world.network.avaxAssetID, total - world.config.txFee, [
        new Uint8Array(20).fill(1),
      ]),
    ]);
    await addTxSignatures({ unsignedTx: tx, privateKeys: [key] });
    out.push(tx.getSignedTx().toBytes());
  }
  return out;
}

async function launch(bin: string): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [bin, '--port', '0', '--quiet', '--accounts', '10']);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(text);
        if (match) resolve(match[1]!);
      });
      child.once('exit', () => reject(new Error(text)));
    });
    await fetch(`${url}/ext/bc/X`, {
      method: 'POST',
      body: '{"jsonrpc":"2.0","id":1,"method":"avm.getHeight","params":{}}',
      headers: { 'content-type': 'application/json' },
    });
    return ms(start);
  } finally {
    child.kill();
  }
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mock-bench-'));
  try {
    await buildMockPackage(dir);
    const launches = [];
    for (let i = 0; i < 3; i++) launches.push(await launch(join(dir, 'dist/bin.js')));
    console.log(
      `avalanche-mock launch to first answer: ${median(launches).toFixed(0)} ms median of 3 (target < 300 ms)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const starts = [];
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    const node = await startMockNode({ accounts: 10 });
    starts.push(ms(start));
    await node.close();
  }
  console.log(`startMockNode in process: ${median(starts).toFixed(1)} ms median of 3 (target < 50 ms)`);

  const world = buildWorld({ network: 'local', accounts: 300, utxosPerAccount: 2 });
  const txs = await twoInputTxs(world);
  const engine = new Engine(world);
  const times: number[] = [];
  const all = process.hrtime.bigint();
  for (const tx of txs) {
    const start = process.hrtime.bigint();
    engine.issue('X', tx);
    times.push(ms(start));
  }
  const seconds = ms(all) / 1000;
  console.log(
    `issueTx of a signed 2-input BaseTx to Accepted (in process): ${median(times).toFixed(3)} ms median; ` +
      `${(txs.length / seconds).toFixed(0)} tx/s over ${txs.length} (targets < 2 ms, >= 500/s)`,
  );

  const heapBefore = process.memoryUsage().heapUsed;
  const big = buildWorld({ network: 'local', accounts: 1, utxosPerAccount: 50_000 });
  const utxos = big.utxos.X.size + big.utxos.P.size;
  const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const [bigTx] = await twoInputTxs(big);
  const bigEngine = new Engine(big);
  const rounds: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = process.hrtime.bigint();
    const mark = big.snapshot();
    bigEngine.issue('X', bigTx!);
    big.revert(mark);
    rounds.push(ms(start));
  }
  console.log(
    `snapshot + issueTx (signatures already recovered once) + revert on ${utxos} UTXOs: ` +
      `${median(rounds).toFixed(3)} ms median of 20 (target < 5 ms); the world's heap ~${heap.toFixed(0)} MB, ` +
      `process RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB (target < 200 MB)`,
  );
}
