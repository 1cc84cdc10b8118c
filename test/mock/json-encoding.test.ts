/**
 * `"encoding": "json"` where the node answers bytes: getUTXOs on the X-, P- and C-Chain (avm.getUTXOs,
 * platform.getUTXOs, avax.getUTXOs) and the C-Chain's avax.getAtomicTx.
 * formatting.Encoding's UnmarshalJSON (utils/formatting/encoding.go, v1.14.2) decodes "json" (any case) like the hex
 * names, so the call is read and run; it is formatting.Encode that then refuses JSON for bytes ("unsupported encoding in
 * method"), once per UTXO or tx found: each wraps that error in its own words, and a page with no UTXO encodes none.
 * Decoding bytes in "json" (issueTx) is refused the same way by formatting.Decode.
 */
import { createHash } from 'node:crypto';
import { Context, utils } from '@avalabs/avalanchejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { cb58Encode } from '../../generators/formats.ts';
import { callRpc } from '../support/rpc.ts';
import { exportEwoqToP } from './c-clients.ts';
import { ewoq } from './sdk-world.ts';

let node: RunningMockNode;
let hrp: string;
let avaxAssetID: string;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 0 } });
  ({ hrp, avaxAssetID } = await Context.getContextFromURI(node.url));
});
afterAll(() => node?.close());

const ewoqOn = (chain: string) => `${chain}-${utils.formatBech32(hrp, ewoq)}`;
/** An address of `chain` no genesis output names, from a 20-byte `fill`. */
const unfundedOn = (chain: string, fill: number) =>
  `${chain}-${utils.formatBech32(hrp, new Uint8Array(20).fill(fill))}`;
const rpc = (path: string, method: string, params: object) => callRpc(node.url + path, method, params);

describe('getUTXOs with the json encoding', () => {
  it('reads the same UTXOs in hex on each chain (the calls below are otherwise well formed)', async () => {
    const x = await rpc('/ext/bc/X', 'avm.getUTXOs', { addresses: [ewoqOn('X')], encoding: 'hex' });
    const p = await rpc('/ext/bc/P', 'platform.getUTXOs', { addresses: [ewoqOn('P')], encoding: 'hex' });
    expect(Number((x.result as { numFetched: string }).numFetched)).toBeGreaterThan(0);
    expect(Number((p.result as { numFetched: string }).numFetched)).toBeGreaterThan(0);
  });

  // vms/avm/service.go (v1.14.2) GetUTXOs: `reply.UTXOs[i], err = formatting.Encode(args.Encoding, b)`, failing with
  // fmt.Errorf("couldn't encode UTXO %s as string: %w", utxo.InputID(), err).
  it("avm.getUTXOs fails on the first UTXO with avm's wrapping of formatting's refusal", async () => {
    const answer = await rpc('/ext/bc/X', 'avm.getUTXOs', { addresses: [ewoqOn('X')], encoding: 'json' });
    expect(answer.error?.message).toMatch(/^couldn't encode UTXO \w+ as string: unsupported encoding in method$/);
  });

  // vms/platformvm/service.go (v1.14.2) GetUTXOs: fmt.Errorf("couldn't encode UTXO %s as %s: %w", utxo.InputID(),
  // args.Encoding, err), Encoding's String() being "json".
  it("platform.getUTXOs fails on the first UTXO with the P-Chain's wrapping", async () => {
    const answer = await rpc('/ext/bc/P', 'platform.getUTXOs', { addresses: [ewoqOn('P')], encoding: 'JSON' });
    expect(answer.error?.message).toMatch(/^couldn't encode UTXO \w+ as json: unsupported encoding in method$/);
  });

  // graft/coreth/plugin/evm/atomic/vm/api.go (v1.14.2) GetUTXOs encodes inside its loop over the UTXOs found, so an
  // address with none in shared memory gets an ordinary page, `"encoding": "json"` echoed (reply.Encoding =
  // args.Encoding).
  it('avax.getUTXOs answers an empty page, echoing the json encoding, when no UTXO is there', async () => {
    const answer = await rpc('/ext/bc/C/avax', 'avax.getUTXOs', {
      addresses: [ewoqOn('C')],
      sourceChain: 'X',
      encoding: 'json',
    });
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ numFetched: '0', utxos: [], encoding: 'json' });
  });

  // The same loop in avm's GetUTXOs: a page with nothing to encode is answered.
  it('avm.getUTXOs answers an empty page, echoing the json encoding', async () => {
    const answer = await rpc('/ext/bc/X', 'avm.getUTXOs', { addresses: [unfundedOn('X', 7)], encoding: 'Json' });
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ numFetched: '0', utxos: [], encoding: 'json' });
  });

  // atomic/vm/api.go GetUTXOs: fmt.Errorf("problem encoding utxo: %w", err), naming no UTXO.
  it("avax.getUTXOs fails on a UTXO in shared memory with coreth's wrapping", async () => {
    const owner = unfundedOn('C', 9);
    await node.dev.fund({ address: owner, amount: '1000000000' });
    const hex = await rpc('/ext/bc/C/avax', 'avax.getUTXOs', { addresses: [owner], sourceChain: 'X' });
    expect(hex.result).toMatchObject({ numFetched: '1' });
    const json = await rpc('/ext/bc/C/avax', 'avax.getUTXOs', {
      addresses: [owner],
      sourceChain: 'X',
      encoding: 'json',
    });
    expect(json.error).toMatchObject({
      code: -32000,
      message: 'problem encoding utxo: unsupported encoding in method',
    });
  });
});

describe("the P-Chain's other encoded outputs with the json encoding", () => {
  // vms/platformvm/service.go GetStake: fmt.Errorf("couldn't encode output %s as %s: %w", output.ID, ...), output.ID
  // being the TransferableOutput's asset ID.
  it('platform.getStake fails on the first staked output, naming its asset', async () => {
    const [staker] = node.world.stakers.values();
    const owner = Buffer.from(staker!.stake[0]!.owner.addresses[0]!, 'hex');
    const addresses = [`P-${utils.formatBech32(hrp, owner)}`];
    const hex = await rpc('/ext/bc/P', 'platform.getStake', { addresses });
    expect((hex.result as { stakedOutputs: string[] }).stakedOutputs.length).toBeGreaterThan(0);
    const json = await rpc('/ext/bc/P', 'platform.getStake', { addresses, encoding: 'json' });
    expect(json.error?.message).toBe(`couldn't encode output ${avaxAssetID} as json: unsupported encoding in method`);
  });

  // GetRewardUTXOs encodes inside its loop too: a tx with no reward UTXOs gets an empty list.
  it('platform.getRewardUTXOs answers an empty list, echoing json, for a tx without reward UTXOs', async () => {
    const txID = '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm';
    const answer = await rpc('/ext/bc/P', 'platform.getRewardUTXOs', { txID, encoding: 'JSON' });
    expect(answer.result).toEqual({ numFetched: '0', utxos: [], encoding: 'json' });
  });
});

describe('issueTx with the json encoding', () => {
  // formatting.Decode refuses JSON for a non-empty string; each IssueTx wraps it as "problem decoding transaction".
  it.each([
    ['/ext/bc/X', 'avm.issueTx'],
    ['/ext/bc/P', 'platform.issueTx'],
    ['/ext/bc/C/avax', 'avax.issueTx'],
    ['/ext/dev', 'dev.simulateTx'],
  ])('%s %s fails decoding the tx', async (path, method) => {
    const answer = await rpc(path, method, {
      tx: '0x00000000',
      encoding: 'json',
      ...(path === '/ext/dev' && { chain: 'X' }),
    });
    expect(answer.error).toMatchObject({
      code: -32000,
      message: 'problem decoding transaction: unsupported encoding in method',
    });
  });
});

describe('avax.getAtomicTx with the json encoding', () => {
  // graft/coreth/plugin/evm/atomic/vm/api.go (v1.14.2) GetAtomicTx: after finding the tx, `reply.Tx, err =
  // formatting.Encode(args.Encoding, tx.SignedBytes())` ... `return err`: the bare "unsupported encoding in method"
  // (-32000). A tx it does not know fails first with "could not find tx <ID>", whatever the encoding.
  it("finds the accepted export, then fails encoding it with formatting's bare refusal", async () => {
    const signed = await exportEwoqToP(node.url);
    const txID = cb58Encode(createHash('sha256').update(signed.toBytes()).digest());
    const getAtomicTx = (encoding: string) => rpc('/ext/bc/C/avax', 'avax.getAtomicTx', { txID, encoding });
    expect((await getAtomicTx('hex')).result).toMatchObject({ encoding: 'hex' });
    expect((await getAtomicTx('json')).error).toMatchObject({
      code: -32000,
      message: 'unsupported encoding in method',
    });
  });
});

describe('the keystore with the json encoding (v1.12.1, its last release)', () => {
  let old: RunningMockNode;
  beforeAll(async () => {
    old = await startMockNode({ port: 0, nodeVersion: 'v1.12.1', world: { network: 'local', accounts: 0 } });
  });
  afterAll(() => old?.close());
  const keystore = (method: string, params: object) => callRpc(`${old.url}/ext/keystore`, method, params);
  const credentials = { username: 'jsonenc', password: 'Sup3r-Secret-Passw0rd!xyz' };

  // api/keystore/service.go (v1.12.1) ExportUser: "couldn't encode user to string: %w"; ImportUser decodes first:
  // "couldn't decode 'user' to bytes: %w".
  it('exportUser and importUser fail encoding or decoding the user', async () => {
    expect((await keystore('keystore.createUser', credentials)).error).toBeUndefined();
    const exported = await keystore('keystore.exportUser', { ...credentials, encoding: 'JSON' });
    expect(exported.error?.message).toBe("couldn't encode user to string: unsupported encoding in method");
    const { user } = (await keystore('keystore.exportUser', credentials)).result as { user: string };
    const imported = await keystore('keystore.importUser', {
      ...credentials,
      username: 'other',
      user,
      encoding: 'json',
    });
    expect(imported.error?.message).toBe("couldn't decode 'user' to bytes: unsupported encoding in method");
  });
});
