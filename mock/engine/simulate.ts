/**
 * `dev.simulateTx`: what `issueTx` would answer for a transaction, what it would cost and what it would consume and
 * make, with nothing changed (Engine.dryRun issues it on a journal mark that is reverted). Like Hardhat's and anvil's
 * `eth_call`/`eth_estimateGas`, in the UTXO world's terms.
 */
import { bech32Encode } from '../../generators/formats.ts';
import { utxoIDOf } from '../world/codec.ts';
import type { Utxo, UtxoChain } from '../world/types.ts';
import type { World } from '../world/world.ts';
import { avalanche } from '../shared/avalanche.ts';
import type { Engine } from './engine.ts';
import { metered, nextBlockFeeState, txGas } from './fee-state.ts';
import { gasPrice } from '../world/fees.ts';
import { txFee } from './p.ts';

interface SimulatedUtxo {
  utxoID: string;
  txID: string;
  outputIndex: number;
  assetID: string;
  amount: string;
  addresses: string[];
  threshold: number;
  locktime: string;
  /** P-Chain stake-locked outputs: until when (0: not locked). */
  stakeableLocktime: string;
  /** Shared memory's other end: the chain an exported UTXO goes to, or the one an imported UTXO came from. */
  chain?: string;
}

export interface Simulation {
  accepted: boolean;
  /** The ID `issueTx` would answer, when the bytes decode. */
  txID?: string;
  /** `issueTx`'s refusal, word for word. */
  error?: string;
  /** nAVAX the transaction must burn: the release's static fee, or the gas at the gas price. */
  fee?: string;
  /** Its complexity in each of the P-Chain's fee dimensions, its gas and the gas price (dynamic fees only). */
  gas?: { bandwidth: string; dbRead: string; dbWrite: string; compute: string; gas: string; gasPrice: string };
  consumed: SimulatedUtxo[];
  produced: SimulatedUtxo[];
  imported: SimulatedUtxo[];
  exported: SimulatedUtxo[];
  /** Each address's change of balance on the chain, per asset (a UTXO counts for every address it names). */
  balanceChanges: Array<{ address: string; assetID: string; change: string }>;
}

export function simulateTx(engine: Engine, world: World, chain: UtxoChain, bytes: Uint8Array): Simulation {
  const none = { consumed: [], produced: [], imported: [], exported: [], balanceChanges: [] };
  const { pooled, refusal } = engine.dryRun(chain, bytes);
  if (refusal) return { accepted: false, error: refusal.message, ...none };
  if (!pooled) return { accepted: true, ...none };
  const { decoded, effects } = pooled;
  const name = chainName(world);
  const view = (utxo: Utxo, other?: string): SimulatedUtxo => ({
    utxoID: utxoIDOf(utxo),
    txID: utxo.txID,
    outputIndex: utxo.outputIndex,
    assetID: utxo.assetID,
    amount: String(utxo.amount),
    addresses: utxo.owner.addresses.map((a) => `${chain}-${bech32Encode(world.network.hrp, Buffer.from(a, 'hex'))}`),
    threshold: utxo.owner.threshold,
    locktime: String(utxo.owner.locktime),
    stakeableLocktime: String(utxo.stakeableLocktime),
    ...(other === undefined ? {} : { chain: name(other) }),
  });
  // The world is as it was before the dry run: what the transaction spends is still there to describe.
  const consumed = effects.consumed.map((key) => world.utxos[chain].get(key)!);
  const imported = effects.imported.map((key) => world.atomic.get(key)!);
  const changes = new Map<string, bigint>();
  const count = (utxo: Utxo, sign: bigint) => {
    for (const address of view(utxo).addresses) {
      const key = `${address} ${utxo.assetID}`;
      changes.set(key, (changes.get(key) ?? 0n) + sign * utxo.amount);
    }
  };
  for (const utxo of [...consumed, ...imported]) count(utxo, -1n);
  for (const utxo of effects.produced) count(utxo, 1n);
  const avax = world.network.avaxAssetID;
  const avaxOf = (utxos: readonly Utxo[]) => utxos.reduce((sum, u) => sum + (u.assetID === avax ? u.amount : 0n), 0n);
  return {
    accepted: true,
    txID: decoded.id,
    fee: String(
      chain === 'P'
        ? txFee(world, decoded)
        : avaxOf([...consumed, ...imported]) - avaxOf(effects.produced) - avaxOf(effects.exported),
    ),
    ...(chain === 'P' && metered(world, world.time.get()) ? { gas: gasOf(world, decoded.tx) } : {}),
    consumed: consumed.map((u) => view(u)),
    produced: effects.produced.map((u) => view(u)),
    imported: imported.map((u) => view(u, u.sourceChain)),
    exported: effects.exported.map((u) => view(u, u.destinationChain)),
    balanceChanges: [...changes]
      .filter(([, change]) => change !== 0n)
      .map(([key, change]) => {
        const [address, assetID] = key.split(' ') as [string, string];
        return { address, assetID, change: String(change) };
      }),
  };
}

function gasOf(world: World, tx: Parameters<typeof txGas>[1]): NonNullable<Simulation['gas']> {
  const dimensions = avalanche().pvm.getTxComplexity(tx);
  const { minPrice, excessConversionConstant } = world.config.fee;
  return {
    bandwidth: String(dimensions[0]),
    dbRead: String(dimensions[1]),
    dbWrite: String(dimensions[2]),
    compute: String(dimensions[3]),
    gas: String(txGas(world, tx)),
    gasPrice: String(gasPrice(minPrice, nextBlockFeeState(world).excess, excessConversionConstant)),
  };
}

/** A chain's alias (`X`, `P`, `C`) where it has one, its ID otherwise. */
function chainName(world: World): (chainID: string) => string {
  const byID = new Map(Object.entries(world.chainIDs).map(([alias, id]) => [id, alias]));
  return (chainID) => byID.get(chainID) ?? chainID;
}
