/**
 * A fork on recorded answers: a fork started through the recorder in front of a second mock keeps each answer; once the
 * mock is gone, a fork started on the replay of that recording finds the same validators, delegators and UTXOs, and a
 * read the recording does not hold is refused by name. (No public recording of a real Fuji node exists to replay here:
 * mock/README.md, Fork mode.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PChainClient, XChainClient } from '../../generated/client/dist/index.js';
import { cb58Encode } from '../../generators/formats.ts';
import { type Recording, readRecording, startRecorder, startReplay } from '../../mock/fork/replay.ts';
import { startMockNode } from '../../mock/package/index.ts';

const AVAX = 1_000_000_000n;
const nodeID = `NodeID-${cb58Encode(Buffer.alloc(20, 21))}`;
const temp = mkdtempSync(join(tmpdir(), 'fork-replay-'));
const file = join(temp, 'recording.json');
/** What the source answered while it ran, to compare the replayed fork with. */
const atSource: Record<string, unknown> = {};
let owners: { x: string; p: string; other: string };

const reads = (url: string) => {
  const p = new PChainClient({ baseUrl: url });
  const x = new XChainClient({ baseUrl: url });
  return {
    validators: () => p.getCurrentValidators({}),
    delegated: () => p.getCurrentValidators({ nodeIDs: [nodeID] } as never),
    pUtxos: () => p.getUTXOs({ addresses: [owners.p], encoding: 'hex' }),
    xUtxos: () => x.getUTXOs({ addresses: [owners.x], encoding: 'hex' }),
  };
};

beforeAll(async () => {
  const source = await startMockNode({ accounts: 3, seed: 'replay source' });
  const end = source.world.time.get() + 20n * 86_400n;
  await source.wallet(1).addValidator(nodeID, 2_000n * AVAX, { end });
  await source.wallet(2).delegate(nodeID, 40n * AVAX, end - 86_400n);
  owners = { x: source.keys[1]!.x, p: source.keys[1]!.p, other: source.keys[0]!.p };
  const recording: Recording = { source: 'a second mock', recordedAt: new Date().toISOString(), exchanges: [] };
  const recorder = await startRecorder(source.url, recording);
  const fork = await startMockNode({ accounts: 1, seed: 'replay fork', fork: { url: recorder.url, cacheDir: false } });
  for (const [name, read] of Object.entries(reads(fork.url))) {
    atSource[name] = await read();
    expect(atSource[name]).toEqual(await reads(source.url)[name as keyof ReturnType<typeof reads>]());
  }
  await fork.close();
  await recorder.close();
  await source.close();
  writeFileSync(file, JSON.stringify(recording));
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('a fork on recorded answers', () => {
  it('starts from the recording alone and finds the validators, delegators and UTXOs as recorded', async () => {
    const replay = await startReplay(readRecording(file));
    const fork = await startMockNode({ accounts: 1, seed: 'replay fork', fork: { url: replay.url, cacheDir: false } });
    try {
      for (const [name, read] of Object.entries(reads(fork.url))) expect(await read()).toEqual(atSource[name]);
      const [validator] = (atSource.delegated as { validators: { delegators?: unknown[] }[] }).validators;
      expect(validator?.delegators).toHaveLength(1);
      expect((atSource.pUtxos as { utxos: string[] }).utxos.length).toBeGreaterThan(0);
    } finally {
      await fork.close();
      await replay.close();
    }
  });

  it('refuses a read the recording does not hold, naming it', async () => {
    const replay = await startReplay(readRecording(file));
    const fork = await startMockNode({ accounts: 1, seed: 'replay fork', fork: { url: replay.url, cacheDir: false } });
    try {
      await expect(
        new PChainClient({ baseUrl: fork.url }).getUTXOs({ addresses: [owners.other], encoding: 'hex' }),
      ).rejects.toThrow(/not recorded from a second mock: \/ext\/bc\/P platform\.getUTXOs/);
    } finally {
      await fork.close();
      await replay.close();
    }
  });
});
