/**
 * Cross-method checks, each a row of its own, that any real node passes because its answers come from one state: a
 * balance equals the sum of the address's UTXOs, a block fetched at height h says h and its parent is the block at
 * h-1, a fetched transaction hashes to its ID, a transaction the chain accepted has status Accepted/Committed,
 * validators agree across the validator methods, the X-Chain's ID has the aliases X and avm, an unknown ID is refused.
 * Each row starts from what the node itself answers (its validators' reward addresses, its tip), never a fixed value.
 */
import { bech32Encode, cb58Encode } from '../generators/formats.ts';
import {
  allUtxos,
  amountOf,
  blockHeader,
  bytesOf,
  type Caller,
  type Obj,
  ok,
  sent,
  sha,
  Skip,
  utxoRef,
} from './coherence-reads.ts';
import type { CheckResult, MethodResult } from './runner.ts';

interface Row {
  name: string;
  run: (call: Caller, paths: { X: string; P: string }) => Promise<string[]>;
}

/**
 * Addresses for the balance rows (without chain prefix): a validator's reward address, which holds funds on any
 * network, and one no key owns, which holds nothing; and the AVAX asset.
 */
async function funded(
  call: Caller,
  paths: { X: string; P: string },
): Promise<{ addresses: string[]; assetID: string }> {
  const { validators } = await ok(call, paths.P, 'platform.getCurrentValidators');
  const owner = (validators as Obj[])
    .map((v) => v.validationRewardOwner as { addresses?: string[] } | undefined)
    .find((o) => o?.addresses?.length);
  if (!owner) throw new Skip('no current validator has a reward address');
  const { assetID } = await ok(call, paths.P, 'platform.getStakingAssetID', {});
  const address = owner.addresses![0]!.replace(/^P-/, '');
  const hrp = address.slice(0, address.lastIndexOf('1'));
  return {
    addresses: [address, bech32Encode(hrp, sha(Buffer.from('an address no key owns')).subarray(0, 20))],
    assetID: String(assetID),
  };
}

const ROWS: Row[] = [
  {
    name: 'P balance = sum of UTXOs',
    run: async (call, paths) => {
      const { addresses, assetID } = await funded(call, paths);
      const problems: string[] = [];
      for (const address of addresses) {
        const balance = await ok(call, paths.P, 'platform.getBalance', { addresses: [`P-${address}`] });
        const utxos = await allUtxos(call, paths.P, 'platform.getUTXOs', `P-${address}`);
        const sum = utxos.reduce((s, u) => s + amountOf('P', u, assetID), 0n);
        if (BigInt(String(balance.balance)) !== sum)
          problems.push(
            `platform.getBalance of P-${address} says ${String(balance.balance)}, its platform.getUTXOs hold ${sum}`,
          );
        const listed = ((balance.utxoIDs ?? []) as Array<{ txID: string; outputIndex: number }>)
          .map((u) => `${u.txID}:${u.outputIndex}`)
          .sort();
        const fetched = utxos.map(utxoRef).sort();
        if (listed.join() !== fetched.join())
          problems.push(
            `platform.getBalance of P-${address} lists ${listed.length} UTXOs, ` +
              `platform.getUTXOs ${fetched.length} others`,
          );
      }
      return problems;
    },
  },
  {
    name: 'X balance = sum of UTXOs',
    run: async (call, paths) => {
      const { addresses, assetID } = await funded(call, paths);
      const problems: string[] = [];
      for (const address of addresses) {
        const { balance } = await ok(call, paths.X, 'avm.getBalance', {
          address: `X-${address}`,
          assetID,
          includePartial: true,
        });
        const sum = (await allUtxos(call, paths.X, 'avm.getUTXOs', `X-${address}`)).reduce(
          (s, u) => s + amountOf('X', u, assetID),
          0n,
        );
        if (BigInt(String(balance)) !== sum)
          problems.push(`avm.getBalance of X-${address} says ${String(balance)}, its avm.getUTXOs hold ${sum}`);
      }
      return problems;
    },
  },
  ...(['P', 'X'] as const).map((chain) => ({
    name: `${chain} block at height h says h, its parent is the block at h-1, getBlock agrees`,
    run: async (call: Caller, paths: { X: string; P: string }) => {
      const ns = chain === 'P' ? 'platform' : 'avm';
      const tip = BigInt(String((await ok(call, paths[chain], `${ns}.getHeight`)).height));
      const problems: string[] = [];
      let child: { parentID: string } | undefined;
      for (let h = tip; h >= 0n && h >= tip - 2n; h--) {
        const bytes = bytesOf(
          (await ok(call, paths[chain], `${ns}.getBlockByHeight`, { height: String(h), encoding: 'hex' })).block,
        );
        const id = cb58Encode(sha(bytes));
        const header = blockHeader(chain, bytes);
        if (header.height !== h) problems.push(`the block at height ${h} says height ${header.height}`);
        if (child && child.parentID !== id)
          problems.push(`the block at height ${h + 1n} names parent ${child.parentID}, the block at ${h} is ${id}`);
        const byID = bytesOf((await ok(call, paths[chain], `${ns}.getBlock`, { blockID: id, encoding: 'hex' })).block);
        if (!Buffer.from(byID).equals(Buffer.from(bytes)))
          problems.push(`${ns}.getBlock(${id}) is not the block at height ${h}`);
        child = header;
      }
      return problems;
    },
  })),
  {
    name: 'fetched transactions hash to their IDs and are Committed/Accepted',
    run: async (call, paths) => {
      const problems: string[] = [];
      const check = async (path: string, ns: string, txID: string, which: string, accepted: string) => {
        const tx = bytesOf((await ok(call, path, `${ns}.getTx`, { txID, encoding: 'hex' })).tx);
        if (cb58Encode(sha(tx)) !== txID) problems.push(`${ns}.getTx(${txID}) hashes to ${cb58Encode(sha(tx))}`);
        const { status } = await ok(call, path, `${ns}.getTxStatus`, { txID });
        if (status !== accepted) problems.push(`${ns}.getTxStatus of ${which} is ${String(status)}`);
      };
      const { validators } = await ok(call, paths.P, 'platform.getCurrentValidators');
      const txID = String((validators as Obj[])[0]?.txID ?? '');
      if (!txID) throw new Skip('no current validator');
      await check(paths.P, 'platform', txID, `the validator tx ${txID}`, 'Committed');
      const { assetID } = await ok(call, paths.X, 'avm.getAssetDescription', { assetID: 'AVAX' });
      await check(paths.X, 'avm', assetID as string, "the AVAX asset's tx", 'Accepted');
      return problems;
    },
  },
  {
    name: 'validators agree across getCurrentValidators, getValidatorsAt, getTotalStake, sampleValidators',
    run: async (call, paths) => {
      const problems: string[] = [];
      const { validators } = await ok(call, paths.P, 'platform.getCurrentValidators');
      const list = validators as Obj[];
      const nodeIDs = list.map((v) => String(v.nodeID));
      if (new Set(nodeIDs).size !== nodeIDs.length) problems.push('getCurrentValidators lists a node twice');
      // Before `weight` was added (see getCurrentValidators' x-changes) a validator's stake was `stakeAmount`.
      const total = list.reduce(
        (s, v) => s + BigInt(String(v.weight ?? v.stakeAmount)) + BigInt(String(v.delegatorWeight ?? 0)),
        0n,
      );
      const { height } = await ok(call, paths.P, 'platform.getHeight');
      const answer = await ok(call, paths.P, 'platform.getValidatorsAt', { height: String(height) });
      // Before v1.10.6 the node wrapped the map in `validators` and gave each node's weight as a bare number.
      const at = (Object.keys(answer).join() === 'validators' ? answer.validators : answer) as Obj;
      if ([...Object.keys(at)].sort().join() !== [...nodeIDs].sort().join())
        problems.push(`getValidatorsAt(${String(height)}) names other nodes than getCurrentValidators`);
      const atWeight = Object.values(at).reduce(
        (s: bigint, v) => s + BigInt(String(typeof v === 'object' && v !== null ? (v as Obj).weight : v)),
        0n,
      );
      if (atWeight !== total) problems.push(`getValidatorsAt weighs ${atWeight}, getCurrentValidators ${total}`);
      const { weight } = await ok(call, paths.P, 'platform.getTotalStake', {});
      if (BigInt(String(weight)) !== total)
        problems.push(`getTotalStake says ${String(weight)}, getCurrentValidators ${total}`);
      const one = nodeIDs[0];
      if (one) {
        const only = (await ok(call, paths.P, 'platform.getCurrentValidators', { nodeIDs: [one] })).validators as Obj[];
        if (only.length !== 1 || only[0]!.nodeID !== one)
          problems.push(`getCurrentValidators({nodeIDs: [${one}]}) lists ${only.length} validators`);
      }
      const size = Math.min(nodeIDs.length, 3);
      const sample = (await ok(call, paths.P, 'platform.sampleValidators', { size })).validators as string[];
      if (sample.length !== size || sample.some((n) => !nodeIDs.includes(n)))
        problems.push(`sampleValidators(${size}) gave ${sample.join(', ')}`);
      return problems;
    },
  },
  {
    name: "the X-Chain's ID has the aliases X and avm",
    run: async (call, paths) => {
      const { blockchains } = await ok(call, paths.P, 'platform.getBlockchains');
      const x = (blockchains as Obj[]).find((c) => c.name === 'X-Chain');
      if (!x) return ['platform.getBlockchains has no X-Chain'];
      const answer = await sent(call, '/ext/admin', 'admin.getChainAliases', { chain: x.id });
      if (answer.error) throw new Skip(`admin.getChainAliases: ${answer.error.message}`);
      const aliases = ((answer.result as Obj).aliases ?? []) as string[];
      const missing = ['X', 'avm'].filter((a) => !aliases?.includes(a));
      return missing.length === 0 ? [] : [`admin.getChainAliases(${String(x.id)}) lacks ${missing.join(' and ')}`];
    },
  },
  {
    name: 'an unknown ID is refused',
    run: async (call, paths) => {
      const unknown = cb58Encode(sha(Buffer.from('an ID no chain has')));
      const problems: string[] = [];
      for (const [path, method, params] of [
        [paths.P, 'platform.getTx', { txID: unknown, encoding: 'hex' }],
        [paths.P, 'platform.getBlock', { blockID: unknown, encoding: 'hex' }],
        [paths.X, 'avm.getTx', { txID: unknown, encoding: 'hex' }],
        [paths.X, 'avm.getBlock', { blockID: unknown, encoding: 'hex' }],
      ] as const) {
        const answer = await sent(call, path, method, params);
        if (!answer.error) problems.push(`${method}(${unknown}) answered a result`);
      }
      const tip = BigInt(String((await ok(call, paths.P, 'platform.getHeight')).height));
      if (
        !(await sent(call, paths.P, 'platform.getBlockByHeight', { height: String(tip + 1000n), encoding: 'hex' }))
          .error
      )
        problems.push('platform.getBlockByHeight above the tip answered a result');
      return problems;
    },
  },
];

/** Runs every coherence row: PASS, FAIL with what disagrees, or SKIP when the node cannot answer what a row needs. */
export async function checkCoherence(call: Caller, paths: { X: string; P: string }): Promise<MethodResult[]> {
  const results: MethodResult[] = [];
  for (const row of ROWS) {
    const base = { method: `coherence: ${row.name}`, endpoint: `${paths.X} ${paths.P}` };
    let problems: string[];
    try {
      problems = await row.run(call, paths);
    } catch (error) {
      if (error instanceof Skip) {
        results.push({ ...base, status: 'SKIP', reason: error.message, checks: [] });
        continue;
      }
      problems = [(error as Error).message];
    }
    const violations = problems.map((message) => ({ pointer: '', rule: 'coherence', message }));
    const check: CheckResult = { name: row.name, kind: 'example', params: {}, answer: 'result', violations };
    results.push({ ...base, status: problems.length > 0 ? 'FAIL' : 'PASS', checks: [check] });
  }
  return results;
}

export const COHERENCE_ROWS = ROWS.map((r) => r.name);
