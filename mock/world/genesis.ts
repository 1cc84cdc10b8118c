/**
 * A world at genesis, built as AvalancheGo's genesis.FromConfig builds a network's (genesis/genesis.go,
 * vms/platformvm/genesis/genesis.go): the AVAX asset's genesis transaction and the X-Chain UTXOs of its holders,
 * P-Chain
 * UTXOs of the unlock schedules (a stakeable.LockOut while locked), the initial stakers as validators staking the
 * "initially staked" funds, the X-, P- and C-Chain with their aliases, and each chain's first block. Fuji and Mainnet
 * keep their real identity and their real AVAX genesis transaction (its holders recorded in ./data, so the asset ID
 * is its hash); their P-Chain is synthetic (five stakers from the seed), since their real genesis is thousands of
 * allocations and no key anyone can sign with.
 *
 * Funded accounts (`accounts`, from `seed`) are not part of genesis (that would change the asset and chain IDs): the
 * mock funds them with one transaction per chain, a BaseTx minting their outputs from no inputs, in block 1 of the
 * X- and the P-Chain. Same options, same world, byte for byte.
 */
import { createECDH, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bech32Decode, cb58Encode } from '../../generators/formats.ts';
import { idBytes, idOf, makeBlock, makeUtxo, outputLength, pGenesisBlock, sha256, writeOutput } from './codec.ts';
import { addGenesisChains } from './genesis-chains.ts';
import { avaxGenesisTx, genesisValidatorTx } from './genesis-txs.ts';
import {
  type Allocation,
  EMPTY_ID,
  NETWORKS,
  type NetworkIdentity,
  type NetworkName,
  type Staker,
} from './networks.ts';
import { potentialReward } from './reward.ts';
import { knownAddresses } from './known-keys.ts';
import type { Owner, UtxoChain } from './types.ts';
import { type FundedKey, World } from './world.ts';

export interface WorldOptions {
  network?: NetworkName;
  /** Funded keys beyond the network's own (default 10). */
  accounts?: number;
  /** Seeds the accounts' keys and Fuji's and Mainnet's synthetic genesis (default `avalanche-mock`). */
  seed?: string;
  /** UTXOs each account's funds are split into, on each of X and P (default 1). */
  utxosPerAccount?: number;
}

const AVAX = 1_000_000_000n;
/** What each funded account holds on the X-Chain and on the P-Chain. */
export const ACCOUNT_FUNDS = 2_500n * AVAX;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The 40-hex short ID of a bech32 address (chain prefix optional). */
function shortID(address: string): string {
  const decoded = bech32Decode(address.slice(address.indexOf('-') + 1));
  if (decoded?.payload.length !== 20) throw new Error(`not an address: ${address}`);
  return hex(decoded.payload);
}

const single = (address: string): Owner => ({ locktime: 0n, threshold: 1, addresses: [address] });

/** `count` keys derived from the seed: the i-th private key is SHA-256("<seed> account <i>"). */
export function deriveKeys(seed: string, count: number): FundedKey[] {
  const keys: FundedKey[] = [];
  const known = knownAddresses(seed);
  for (let i = 0; i < count; i++) {
    const privateKey = sha256(Buffer.from(`${seed} account ${i}`));
    const address = known?.[i] ?? addressOf(privateKey);
    keys.push({ privateKey: `PrivateKey-${cb58Encode(privateKey)}`, address });
  }
  return keys;
}

function addressOf(privateKey: Uint8Array): string {
  // OpenSSL's secp256k1 is several times faster than a JavaScript one, and start-up derives every key.
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return createHash('ripemd160')
    .update(sha256(ecdh.getPublicKey(null, 'compressed')))
    .digest('hex');
}

/** The AVAX genesis transaction's holders of Fuji or Mainnet, recorded from AvalancheGo's genesis files (./data). */
function recordedHolders(identity: NetworkIdentity): Allocation[] {
  const data = JSON.parse(
    readFileSync(join(import.meta.dirname, 'data', `${identity.name}-x-holders.json`), 'utf8'),
  ) as { ethAddrs: string[]; holders: Array<[string, string, number]> };
  return data.holders.map(([address, amount, eth]) => ({
    address,
    ethAddr: data.ethAddrs[eth]!,
    initialAmount: BigInt(amount),
    unlockSchedule: [],
  }));
}

/** Fuji and Mainnet: their X-Chain genesis holders, and five stakers with their staked funds, named from the seed. */
function syntheticGenesis(identity: NetworkIdentity, seed: string): { allocations: Allocation[]; stakers: Staker[] } {
  const name = (what: string) => sha256(Buffer.from(`${seed} ${identity.name} ${what}`)).subarray(0, 20);
  const staked = hex(name('staked funds'));
  const stakers = Array.from({ length: 5 }, (_, i) => ({
    nodeID: `NodeID-${cb58Encode(name(`staker ${i}`))}`,
    rewardAddress: hex(name('rewards')),
    delegationFee: 20000,
    publicKey: '',
    proofOfPossession: '',
  }));
  return {
    allocations: [
      {
        address: staked,
        ethAddr: staked,
        initialAmount: 0n,
        unlockSchedule: [{ amount: 5n * 2_000_000n * AVAX, locktime: 0n }],
      },
      ...recordedHolders(identity),
    ],
    stakers,
  };
}

export function buildWorld(options: WorldOptions = {}): World {
  const identity = NETWORKS[options.network ?? 'local'];
  const seed = options.seed ?? 'avalanche-mock';
  const world = new World(identity);
  world.seed = seed;
  world.funding = { accounts: options.accounts ?? 10, utxosPerAccount: Math.max(1, options.utxosPerAccount ?? 1) };
  // Genesis is where every revert can go back to, never further: nothing to journal while building it.
  world.journal.recording = false;
  const synthetic = identity.allocations.length === 0 ? syntheticGenesis(identity, seed) : undefined;
  const allocations: Allocation[] = (synthetic?.allocations ?? identity.allocations).map((a) => ({
    ...a,
    address: a.address.length === 40 ? a.address : shortID(a.address),
  }));
  const stakers = (synthetic?.stakers ?? identity.stakers).map((s) => ({
    ...s,
    rewardAddress: s.rewardAddress.length === 40 ? s.rewardAddress : shortID(s.rewardAddress),
  }));
  const stakedFunds = new Set(synthetic ? [allocations[0]!.address] : identity.initialStakedFunds.map(shortID));
  world.accounts.push(...deriveKeys(seed, options.accounts ?? 10));
  const { avaxAssetID, startTime } = identity;
  const chains = world.chainIDs;

  // Aliases (genesis/aliases.go) and the AVAX asset.
  for (const [id, aliases] of [
    [chains.P, ['P', 'platform']],
    [chains.X, ['X', 'avm']],
    [chains.C, ['C', 'evm']],
  ] as const) {
    for (const alias of [...aliases, id]) world.addChainAlias(id, alias);
  }
  world.assets.set(avaxAssetID, { id: avaxAssetID, name: 'Avalanche', symbol: 'AVAX', denomination: 9 });
  world.assetAliases.set('AVAX', avaxAssetID);

  // X-Chain: the genesis asset's transaction, and its holders' UTXOs (its outputs, sorted by their bytes).
  const holders = allocations
    .filter((a) => a.initialAmount > 0n)
    .sort((a, b) =>
      a.initialAmount !== b.initialAmount
        ? a.initialAmount < b.initialAmount
          ? -1
          : 1
        : a.address < b.address
          ? -1
          : 1,
    );
  const assetTx = avaxGenesisTx(identity.networkID, EMPTY_ID, holders);
  if (assetTx.id !== avaxAssetID)
    throw new Error(`the ${identity.name} genesis asset transaction hashes to ${assetTx.id}, not ${avaxAssetID}`);
  world.txs.set(avaxAssetID, { id: avaxAssetID, chain: 'X', bytes: assetTx.bytes, status: 'Accepted' });
  addGenesisChains(world, identity, assetTx.bytes);
  holders.forEach((holder, outputIndex) => {
    const utxo = makeUtxo({
      txID: avaxAssetID,
      outputIndex,
      assetID: avaxAssetID,
      amount: holder.initialAmount,
      owner: single(holder.address),
      stakeableLocktime: 0n,
    });
    world.utxos.X.set(utxo.key, utxo);
  });

  // P-Chain: every unlock of every allocation not initially staked, in allocation order, from the empty tx ID.
  let outputIndex = 0;
  for (const allocation of allocations) {
    if (stakedFunds.has(allocation.address)) continue;
    for (const unlock of allocation.unlockSchedule) {
      if (unlock.amount === 0n) continue;
      const utxo = makeUtxo({
        txID: EMPTY_ID,
        outputIndex: outputIndex++,
        assetID: avaxAssetID,
        amount: unlock.amount,
        owner: single(allocation.address),
        stakeableLocktime: unlock.locktime > startTime ? unlock.locktime : 0n,
      });
      world.utxos.P.set(utxo.key, utxo);
    }
  }

  let supply = allocations.reduce(
    (sum, a) => sum + a.initialAmount + a.unlockSchedule.reduce((s, u) => s + u.amount, 0n),
    0n,
  );
  const staked = allocations.filter((a) => stakedFunds.has(a.address));
  stakers.forEach((staker, i) => {
    const endTime = startTime + identity.initialStakeDuration - BigInt(i) * identity.initialStakeDurationOffset;
    // splitAllocations: the initially staked funds shared equally among the stakers.
    const stake = staked.flatMap((a) =>
      a.unlockSchedule.map((u) => ({
        address: a.address,
        amount: u.amount / BigInt(stakers.length),
        locktime: u.locktime,
      })),
    );
    const weight = stake.reduce((sum, s) => sum + s.amount, 0n);
    const owner = single(staker.rewardAddress);
    const tx = genesisValidatorTx(
      identity.networkID,
      EMPTY_ID,
      identity.avaxAssetID,
      staker,
      startTime,
      endTime,
      stake,
      owner,
    );
    const reward = potentialReward(world.config.staking.rewardConfig, endTime - startTime, weight, supply);
    supply += reward;
    world.txs.set(tx.id, { id: tx.id, chain: 'P', bytes: tx.bytes, status: 'Committed' });
    // The network's own nodes: up and connected from genesis.
    world.uptimes.set(staker.nodeID, { connected: true, upSeconds: 0n, since: startTime });
    world.stakers.set(tx.id, {
      txID: tx.id,
      subnetID: EMPTY_ID,
      nodeID: staker.nodeID,
      startTime,
      endTime,
      weight,
      stake: stake.map((s, index) =>
        makeUtxo({
          txID: tx.id,
          outputIndex: index,
          assetID: avaxAssetID,
          amount: s.amount,
          owner: single(s.address),
          stakeableLocktime: s.locktime > startTime ? s.locktime : 0n,
        }),
      ),
      rewardOwner: owner,
      delegationRewardOwner: owner,
      delegationFee: staker.delegationFee,
      ...(staker.publicKey
        ? { signer: { publicKey: staker.publicKey, proofOfPossession: staker.proofOfPossession } }
        : {}),
      potentialReward: reward,
    });
  });
  world.acceptBlock(pGenesisBlock(identity.genesisID, startTime));
  world.acceptBlock(makeBlock('X', undefined, startTime, []));

  if (world.accounts.length > 0) {
    const pieces = Math.max(1, options.utxosPerAccount ?? 1);
    // One owner record and one amount shared by all of an account's UTXOs: with --accounts there are 100,000 of them.
    const piece = ACCOUNT_FUNDS / BigInt(pieces);
    const amounts = Array.from({ length: pieces }, (_, i) =>
      i === 0 ? piece + (ACCOUNT_FUNDS % BigInt(pieces)) : piece,
    );
    const owners = world.accounts.map((account) => single(account.address));
    for (const chain of ['X', 'P'] as const) {
      const tx = fundingTx(identity, chain, owners, amounts);
      world.txs.set(tx.id, { id: tx.id, chain, bytes: tx.bytes, status: 'Processing' });
      let outputIndex = 0;
      for (const owner of owners) {
        for (const amount of amounts) {
          const utxo = makeUtxo({
            txID: tx.id,
            outputIndex: outputIndex++,
            assetID: avaxAssetID,
            amount,
            owner,
            stakeableLocktime: 0n,
          });
          world.utxos[chain].set(utxo.key, utxo);
        }
      }
      supply += ACCOUNT_FUNDS * BigInt(world.accounts.length);
      world.acceptBlock(makeBlock(chain, world.tip(chain), startTime, [tx]));
    }
  }
  world.supply.set(supply);
  world.journal.recording = true;
  return world;
}

/** BaseTx type IDs: the AVM's first type, the platform VM's since Durango. */
const BASE_TX_TYPE: Record<UtxoChain, number> = { X: 0, P: 0x22 };

/**
 * The mock's funding transaction on a chain: a BaseTx with AVAX outputs and no inputs, memo or credentials; each
 * owner gets one output of each amount, in order.
 */
function fundingTx(
  identity: NetworkIdentity,
  chain: UtxoChain,
  owners: Owner[],
  amounts: bigint[],
): { id: string; bytes: Uint8Array } {
  const asset = idBytes(identity.avaxAssetID);
  const size = (owner: Owner) => 32 + outputLength(owner);
  const count = owners.length * amounts.length;
  // Laid out in one buffer (with --accounts, this transaction holds every funded output of the chain), each output
  // written once per owner and amount and copied for the owner's other outputs of that amount.
  const bytes = Buffer.alloc(2 + 4 + 4 + 32 + 4 + owners.reduce((sum, o) => sum + size(o), 0) * amounts.length + 12);
  bytes.writeUInt32BE(BASE_TX_TYPE[chain], 2);
  bytes.writeUInt32BE(identity.networkID, 6);
  bytes.set(idBytes(chain === 'X' ? identity.xChainID : identity.pChainID), 10);
  bytes.writeUInt32BE(count, 42);
  let at = 46;
  for (const owner of owners) {
    const length = size(owner);
    let previous = -1;
    for (let i = 0; i < amounts.length; i++) {
      if (previous >= 0 && amounts[i] === amounts[i - 1]) bytes.copyWithin(at, previous, previous + length);
      else {
        bytes.set(asset, at);
        writeOutput(bytes, at + 32, amounts[i]!, owner, 0n);
      }
      previous = at;
      at += length;
    }
  }
  // No inputs, an empty memo, no credentials: the zeros Buffer.alloc left.
  return { id: idOf(bytes), bytes };
}
