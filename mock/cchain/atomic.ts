/**
 * The C-Chain's atomic transactions (coreth plugin/evm/atomic): decoded with avalanchejs' `evm` codec, verified as
 * coreth's mempool verifies them at the tip (vm.verifyTxAtTip: size and gas limits, the tx's Verify, the semantic
 * verifier's flow check, credentials and shared-memory UTXOs, then EVMStateTransfer's balances and nonces), their
 * texts verbatim. What a valid one changes is returned, for ./avax.ts to apply to the world and the EVM.
 */
import { avalanche } from '../shared/avalanche.ts';
import { type Transaction, decodeSigned, keyOf } from '../engine/codec.ts';
import { checkSortedUnique } from '../engine/effects.ts';
import { utxoRecord } from '../engine/codec.ts';
import { Refusal } from '../engine/refusals.ts';
import { verifySpend } from '../engine/spend.ts';
import { checkOutputsSorted, verifyTransferableInput, verifyTransferableOutput } from '../engine/syntax.ts';
import { idBytes, idOf, sha256 } from '../world/codec.ts';
import { recoverPublicKey } from '../world/signers.ts';
import type { AtomicUtxo } from '../world/types.ts';
import { atomicKey, type World } from '../world/world.ts';
import { keccakHex } from './blocks.ts';
import { X2C_RATE } from './genesis.ts';

export interface AtomicTx {
  kind: 'import' | 'export';
  tx: Transaction;
  credentials: Uint8Array[][];
  bytes: Uint8Array;
  id: string;
  unsignedBytes: Uint8Array;
}

/** What an accepted atomic tx changes: shared memory, and EVM balances (wei) and nonces by 40-hex address. */
export interface AtomicEffects {
  imported: string[];
  exported: AtomicUtxo[];
  balances: Map<string, bigint>;
  nonces: Map<string, bigint>;
}

/** The EVM state the verification reads: the next block's base fee (wei), and balances and nonces. */
export interface EvmView {
  baseFee: bigint;
  balance(address: string): bigint;
  nonce(address: string): bigint;
}

const TARGET_ATOMIC_TXS_SIZE = 40 * 1024;
const ATOMIC_GAS_LIMIT = 100_000n;
const ATOMIC_TX_INTRINSIC_GAS = 10_000n;
const COST_PER_SIGNATURE = 1_000n;
const MAX_UINT64 = (1n << 64n) - 1n;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const evmManager = () => avalanche().utils.getManagerForVM('EVM');

/** atomic.Codec.Unmarshal of a signed atomic tx; the codec's text (IssueTx prefixes "problem parsing transaction"). */
export function decodeAtomic(bytes: Uint8Array): AtomicTx {
  const { tx, credentials, unsigned } = decodeSigned('C', bytes);
  const kind = tx._type === 'evm.ImportTx' ? 'import' : 'export';
  return { kind, tx, credentials, bytes, id: idOf(bytes), unsignedBytes: unsigned };
}

/** GasUsed(fixedFee: true): the unsigned bytes, a signature's cost per signer, and AP5's intrinsic gas. */
export function gasUsed(atomic: AtomicTx): bigint {
  const tx = atomic.tx;
  const signatures =
    atomic.kind === 'import'
      ? tx.importedInputs.reduce((n: bigint, input: Transaction) => n + BigInt(input.sigIndicies().length), 0n)
      : BigInt(tx.ins.length);
  return BigInt(atomic.unsignedBytes.length) + signatures * COST_PER_SIGNATURE + ATOMIC_TX_INTRINSIC_GAS;
}

/** atomic.CalculateDynamicFee: gas at the base fee, in nAVAX, rounded up. */
export const dynamicFee = (gas: bigint, baseFee: bigint): bigint => (gas * baseFee + X2C_RATE - 1n) / X2C_RATE;

/** The wrapping of one kind's flow check. */
function flowCheck(kind: string, produced: bigint[], consumed: bigint[]): void {
  const sum = (amounts: bigint[]) => {
    let total = 0n;
    for (const amount of amounts) {
      total += amount;
      if (total > MAX_UINT64) throw new Refusal(`${kind} tx flow check failed due to: overflow`);
    }
    return total;
  };
  if (sum(produced) > sum(consumed)) throw new Refusal(`${kind} tx flow check failed due to: insufficient funds`);
}

/** utils.IsSortedAndUnique over EVMOutputs or EVMInputs: by address, then asset ID (their Compare). */
function checkByAddressAndAsset(items: readonly Transaction[], refusal: string): void {
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!;
    const b = items[i]!;
    const order =
      Buffer.compare(a.address.toBytes(), b.address.toBytes()) ||
      Buffer.compare(a.assetId.toBytes(), b.assetId.toBytes());
    if (order >= 0) throw new Refusal(refusal);
  }
}

/** Whether an avalanchejs ID is the cb58 `id`, by their bytes (cb58-encoding the tx's would cost more than the check). */
const isID = (value: { toBytes(): Uint8Array }, id: string): boolean =>
  Buffer.compare(value.toBytes(), idBytes(id)) === 0;

/** The network and chain checks of UnsignedImportTx.Verify and UnsignedExportTx.Verify. */
function verifyIDs(world: World, tx: Transaction): void {
  if (tx.networkId.value() !== world.network.networkID) throw new Refusal('tx was issued with a different network ID');
  if (!isID(tx.blockchainId, world.chainIDs.C)) throw new Refusal('tx has wrong chain ID');
}

/** The source or destination when it is another chain of the Primary Network (verify.SameSubnet checks that). */
const peerOf = (world: World, chain: Transaction): string | undefined =>
  [world.chainIDs.X, world.chainIDs.P].find((id) => isID(chain, id));

/** verify.SameSubnet's refusal. */
function verifyPeer(peer: string | undefined): asserts peer is string {
  if (peer === undefined) throw new Refusal('tx has wrong chain ID');
}

function verifyImport(world: World, atomic: AtomicTx, evm: EvmView): AtomicEffects {
  const tx = atomic.tx;
  const inputs: Transaction[] = tx.importedInputs;
  const outs: Transaction[] = tx.Outs;
  const avax = world.network.avaxAssetID;
  if (inputs.length === 0) throw new Refusal('tx has no imported inputs');
  const source = peerOf(world, tx.sourceChain);
  verifyIDs(world, tx);
  if (outs.length === 0) throw new Refusal('tx has no EVM outputs');
  verifyPeer(source);
  for (const out of outs) {
    if (out.amount.value() === 0n) throw new Refusal('EVM Output failed verification: output has no value');
    if (/^0+$/.test(hex(out.assetId.toBytes())))
      throw new Refusal('EVM Output failed verification: empty asset ID is not valid');
    if (!isID(out.assetId, avax)) throw new Refusal('import output cannot contain non-AVAX in Banff');
  }
  for (const input of inputs) {
    try {
      verifyTransferableInput(input);
    } catch (error) {
      throw new Refusal(`atomic input failed verification: ${(error as Error).message}`);
    }
    if (!isID(input.assetId, avax)) throw new Refusal('import input cannot contain non-AVAX in Banff');
  }
  checkSortedUnique(inputs);
  checkByAddressAndAsset(outs, 'outputs not sorted and unique');
  const fee = dynamicFee(gasUsed(atomic), evm.baseFee);
  flowCheck(
    'import',
    [fee, ...outs.map((o) => o.amount.value() as bigint)],
    inputs.map((i) => i.amount() as bigint),
  );
  if (atomic.credentials.length !== inputs.length)
    throw new Refusal(`incorrect number of credentials: (${inputs.length} vs. ${atomic.credentials.length})`);
  const keys = inputs.map((input) => atomicKey(world.chainIDs.C, keyOf(input)));
  const utxos = keys.map((key) => world.atomic.get(key));
  if (utxos.some((utxo) => !utxo || utxo.sourceChain !== source))
    throw new Refusal(`failed to fetch import UTXOs from ${source} due to: not found`);
  const hash = sha256(atomic.unsignedBytes);
  inputs.forEach((input, i) => {
    const utxo = utxos[i]!;
    if (!isID(input.assetId, utxo.assetID)) throw new Refusal("asset IDs in the input don't match the utxo");
    try {
      verifySpend(hash, input.input, atomic.credentials[i]!, utxo, world.time.get());
    } catch (error) {
      throw new Refusal(`import tx transfer failed verification: ${(error as Error).message}`);
    }
  });
  const balances = new Map<string, bigint>();
  for (const out of outs) {
    const address = hex(out.address.toBytes());
    balances.set(address, (balances.get(address) ?? evm.balance(address)) + out.amount.value() * X2C_RATE);
  }
  return { imported: keys, exported: [], balances, nonces: new Map() };
}

function verifyExport(world: World, atomic: AtomicTx, evm: EvmView): AtomicEffects {
  const tx = atomic.tx;
  const ins: Transaction[] = tx.ins;
  const outs: Transaction[] = tx.exportedOutputs;
  const avax = world.network.avaxAssetID;
  const destination = peerOf(world, tx.destinationChain);
  if (outs.length === 0) throw new Refusal('tx has no export outputs');
  verifyIDs(world, tx);
  verifyPeer(destination);
  for (const input of ins) {
    if (input.amount.value() === 0n) throw new Refusal('input has no value');
    if (/^0+$/.test(hex(input.assetId.toBytes()))) throw new Refusal('empty asset ID is not valid');
    if (!isID(input.assetId, avax)) throw new Refusal('export input cannot contain non-AVAX in Banff');
  }
  for (const out of outs) {
    verifyTransferableOutput(out);
    if (!isID(out.assetId, avax)) {
      if (destination === world.chainIDs.P) throw new Refusal('tx has wrong chain ID');
      throw new Refusal('export output cannot contain non-AVAX in Banff');
    }
  }
  try {
    checkOutputsSorted(outs, evmManager().getDefaultCodec());
  } catch {
    throw new Refusal('tx outputs not sorted');
  }
  checkByAddressAndAsset(ins, 'inputs not sorted and unique');
  const fee = dynamicFee(gasUsed(atomic), evm.baseFee);
  flowCheck(
    'export',
    [fee, ...outs.map((o) => o.output.amount() as bigint)],
    ins.map((i) => i.amount.value() as bigint),
  );
  if (ins.length !== atomic.credentials.length)
    throw new Refusal(
      `export tx contained incorrect number of credentials want ${ins.length} got ${atomic.credentials.length}`,
    );
  const hash = sha256(atomic.unsignedBytes);
  ins.forEach((input, i) => {
    const sigs = atomic.credentials[i]!;
    if (sigs.length !== 1)
      throw new Refusal(
        `incorrect number of signatures want 1 signature for EVM Input Credential, but got ${sigs.length}`,
      );
    let publicKey: Uint8Array;
    try {
      publicKey = recoverPublicKey(hash, sigs[0]!, false);
    } catch {
      throw new Refusal('invalid signature');
    }
    // PublicKeyToEthAddress: the last 20 bytes of the keccak-256 of X || Y.
    if (keccakHex(publicKey.subarray(1)).slice(-40) !== hex(input.address.toBytes()))
      throw new Refusal("signature doesn't match public key");
  });
  // EVMStateTransfer: each input's amount off its address's balance, its nonce the account's; then nonces bumped.
  const balances = new Map<string, bigint>();
  const nonces = new Map<string, bigint>();
  for (const input of ins) {
    const address = hex(input.address.toBytes());
    const amount = input.amount.value() * X2C_RATE;
    const balance = balances.get(address) ?? evm.balance(address);
    if (balance < amount) throw new Refusal('insufficient funds');
    balances.set(address, balance - amount);
    if (evm.nonce(address) !== input.nonce.value()) throw new Refusal('invalid nonce');
    nonces.set(address, input.nonce.value() + 1n);
  }
  const exported = outs.map((out, index) => ({
    // Every output's asset is AVAX (checked above).
    ...utxoRecord('P', atomic.id, index, avax, out.output),
    sourceChain: world.chainIDs.C,
    destinationChain: destination,
  }));
  return { imported: [], exported, balances, nonces };
}

/** vm.verifyTxAtTip: the node's refusal, or what the tx changes. */
export function verifyAtomic(world: World, atomic: AtomicTx, evm: EvmView): AtomicEffects {
  if (atomic.bytes.length > TARGET_ATOMIC_TXS_SIZE)
    throw new Refusal(
      `tx size (${atomic.bytes.length}) exceeds total atomic txs size target (${TARGET_ATOMIC_TXS_SIZE})`,
    );
  const gas = gasUsed(atomic);
  if (gas > ATOMIC_GAS_LIMIT)
    throw new Refusal(`tx gas usage (${gas}) exceeds maximum allowed mempool gas usage (${ATOMIC_GAS_LIMIT})`);
  return atomic.kind === 'import' ? verifyImport(world, atomic, evm) : verifyExport(world, atomic, evm);
}

/** The EVM addresses whose balance and nonce the verification reads. */
export function accountsOf(atomic: AtomicTx): string[] {
  const list: Transaction[] = atomic.kind === 'import' ? atomic.tx.Outs : atomic.tx.ins;
  return [...new Set(list.map((item) => hex(item.address.toBytes())))];
}

/** InputUTXOs: an import's UTXO keys; an export's inputs by nonce and address (coreth packs the two into an ID). */
export function inputIDs(atomic: AtomicTx): string[] {
  if (atomic.kind === 'import') return atomic.tx.importedInputs.map((input: Transaction) => keyOf(input));
  return atomic.tx.ins.map((input: Transaction) => `${input.nonce.value()}:${hex(input.address.toBytes())}`);
}

/** atomic.EffectiveGasPrice of a verified tx: the AVAX it burns (inputs less outputs), in wei, per unit of its gas. */
export function effectiveGasPrice(atomic: AtomicTx): bigint {
  const tx = atomic.tx;
  const sum = (amounts: bigint[]) => amounts.reduce((total, amount) => total + amount, 0n);
  const burned =
    atomic.kind === 'import'
      ? sum(tx.importedInputs.map((i: Transaction) => i.amount() as bigint)) -
        sum(tx.Outs.map((o: Transaction) => o.amount.value() as bigint))
      : sum(tx.ins.map((i: Transaction) => i.amount.value() as bigint)) -
        sum(tx.exportedOutputs.map((o: Transaction) => o.output.amount() as bigint));
  return (burned * X2C_RATE) / gasUsed(atomic);
}

/** A block's ExtData since AP5: atomic.Codec of the []*Tx batch (codec version, u32 count, each tx without its version). */
export function atomicBatch(txs: readonly Uint8Array[]): Uint8Array {
  const head = Buffer.alloc(6);
  head.writeUInt32BE(txs.length, 2);
  return Buffer.concat([head, ...txs.map((tx) => tx.subarray(2))]);
}

/** The signed txs of a block's ExtData (./replay.ts), each with its codec version again. */
export function batchTxs(extData: Uint8Array): Uint8Array[] {
  if (extData.length === 0) return [];
  const codec = evmManager().getDefaultCodec();
  const { avaxSerial } = avalanche();
  const out: Uint8Array[] = [];
  let rest = extData.subarray(6);
  for (let i = Buffer.from(extData).readUInt32BE(2); i > 0; i--) {
    const [, after] = avaxSerial.SignedTx.fromBytes(rest, codec) as [unknown, Uint8Array];
    out.push(Buffer.concat([Buffer.alloc(2), rest.subarray(0, rest.length - after.length)]));
    rest = after;
  }
  return out;
}
