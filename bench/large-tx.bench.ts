/**
 * Refusing large transactions (issue 24 items 4 and 8): an X-Chain BaseTx of 3,200 outputs (about 256 KiB, the
 * codec's limit) for another network, which the node refuses in about a millisecond once parsed, and the same with
 * the mock's decoding as it was (avalanchejs reading through a copy of the rest per field) as the baseline. Median
 * of 15, wall time.
 */
import {
  Address,
  BigIntPr,
  Bytes,
  Id,
  Int,
  OutputOwners,
  TransferOutput,
  TransferableOutput,
} from '@avalabs/avalanchejs';
import { avaxSerial, avmSerial, utils } from '@avalabs/avalanchejs';
import { Engine } from '../mock/engine/engine.ts';
import { buildWorld } from '../mock/world/genesis.ts';
import { median } from './median.ts';

const RUNS = 15;

export default async function bench(): Promise<void> {
  const world = buildWorld({ network: 'local', accounts: 0 });
  const engine = new Engine(world);
  const assetId = Id.fromString(world.network.avaxAssetID);
  const owners = () => new OutputOwners(new BigIntPr(0n), new Int(1), [new Address(new Uint8Array(20).fill(1))]);
  const outs = Array.from(
    { length: 3200 },
    (_, i) => new TransferableOutput(assetId, new TransferOutput(new BigIntPr(BigInt(i + 1)), owners())),
  );
  const base = new avaxSerial.BaseTx(
    new Int(5),
    Id.fromString(world.chainIDs.X),
    outs,
    [],
    new Bytes(new Uint8Array()),
  );
  const bytes = new avaxSerial.SignedTx(new avmSerial.BaseTx(base), []).toBytes();
  const time = (run: () => void) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      run();
      times.push(performance.now() - start);
    }
    return median(times);
  };
  const refused = time(() => {
    try {
      engine.issue('X', bytes);
    } catch {}
  });
  // What decoding cost before: avalanchejs' own unpack, copying the rest of the bytes at every field.
  const before = time(() => utils.getManagerForVM('AVM').unpack(bytes, avaxSerial.SignedTx));
  console.log(
    `a ${(bytes.length / 1024).toFixed(0)} KiB X-Chain tx for another network refused in ${refused.toFixed(1)} ms ` +
      `(decoding alone, as it was: ${before.toFixed(0)} ms; the node: about 1 ms)`,
  );
}
