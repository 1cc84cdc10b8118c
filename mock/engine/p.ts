/**
 * The P-Chain's verification of an issued transaction, as vms/platformvm/txs/executor/standard_tx_executor.go runs it
 * (syntactic check, memo empty since Durango, subnet authorization, dynamic fee, utxo/verifier.go's spend check), with
 * the wrapping that block/executor/manager.go, network/gossip.go and service.go add (./refusals.ts pIssue).
 */
import { type TransferableInput, type TransferableOutput, pvm } from '@avalabs/avalanchejs';
import { type DecodedTx, inputID } from './codec.ts';
import { type Effects, checkSortedUnique, outputsOf } from './effects.ts';
import type { AtomicUtxo, Ledger, StoredUtxo } from './ledger.ts';
import { Refusal, TEXTS, pIssue, pMissingUtxo } from './refusals.ts';
import { ownersOf, sigIndicesOf, verifyCredentials, verifySpend } from './spend.ts';

/** gas.CalculatePrice: minPrice * e^(excess / K), by the node's Taylor series in integers. */
export function gasPrice(minPrice: bigint, excess: bigint, k: bigint): bigint {
  let output = 0n;
  let accumulator = minPrice * k;
  const max = k * 0xffff_ffff_ffff_ffffn;
  for (let i = 1n; accumulator > 0n; i++) {
    output += accumulator;
    if (output >= max) return 0xffff_ffff_ffff_ffffn;
    accumulator = (accumulator * excess) / k / i;
  }
  return output / k;
}

/** The fee the node requires of `tx` now: its complexity's gas at the current gas price. */
export function dynamicFee(ledger: Ledger, tx: unknown): bigint {
  const { weights, minPrice, excessConversionConstant } = ledger.fees;
  const price = gasPrice(minPrice, ledger.feeState.excess, excessConversionConstant);
  const dims = { 0: Number(weights.bandwidth), 1: Number(weights.dbRead), 2: Number(weights.dbWrite), 3: Number(weights.compute) };
  return pvm.calculateFee(tx, dims, price) as bigint;
}

interface Parts {
  ins: TransferableInput[];
  outs: TransferableOutput[];
  imported: TransferableInput[];
  exported: TransferableOutput[];
  source?: string;
  destination?: string;
  /** Credentials the base inputs use (a subnet's authorization takes the last one). */
  baseCreds: Uint8Array[][];
}

/** verify.SameSubnet on the Primary Network: a chain of the Primary Network other than P itself. */
function sameSubnet(ledger: Ledger, chainID: string): void {
  if (chainID === ledger.chainIDs.P) throw new Refusal('same chain');
  if (chainID !== ledger.chainIDs.X && chainID !== ledger.chainIDs.C) throw new Refusal('mismatched subnets');
}

/** A P-Chain UTXO spent by an input: the stakeable lock checks, then the fx's spend check. Returns locked-ness. */
function spend(ledger: Ledger, decoded: DecodedTx, input: TransferableInput, stored: StoredUtxo, credential: Uint8Array[]): void {
  if (stored.utxo.getAssetId() !== input.getAssetId()) throw new Refusal(TEXTS.pAssetIDMismatch(input.getAssetId(), stored.utxo.getAssetId()));
  let out = stored.utxo.output;
  let locktime = 0n;
  if (out._type === 'pvm.StakeableLockOut') {
    locktime = out.lockTime.value();
    out = out.transferOut;
  }
  let inner = input.input;
  if (inner._type === 'pvm.StakeableLockIn') {
    if (inner.lockTime.value() !== locktime) throw new Refusal(TEXTS.locktimeMismatch(inner.lockTime.value(), locktime));
    inner = inner.transferableInput;
  } else if (ledger.time < locktime) throw new Refusal(TEXTS.lockedNotMarked);
  try {
    verifySpend(decoded.unsignedHash, inner, credential, { ...stored.utxo, output: out }, ledger.time);
  } catch (error) {
    throw new Refusal(`failed to verify transfer: ${(error as Error).message}`);
  }
}

/** Unlocked AVAX: inputs cover outputs plus the fee (locked outputs must come from the same locked inputs). */
function flow(ledger: Ledger, ins: TransferableInput[], outs: TransferableOutput[], fee: bigint): void {
  const balance = new Map<string, bigint>([[ledger.avaxAssetID, -fee]]);
  for (const out of outs) balance.set(out.getAssetId(), (balance.get(out.getAssetId()) ?? 0n) - out.amount());
  for (const input of ins) balance.set(input.getAssetId(), (balance.get(input.getAssetId()) ?? 0n) + input.amount());
  for (const [assetID, amount] of balance) if (amount < 0n) throw new Refusal(TEXTS.insufficientUnlocked(-amount, assetID));
}

function partsOf(ledger: Ledger, decoded: DecodedTx): Parts {
  const tx = decoded.tx;
  const base = tx.baseTx.baseTx ?? tx.baseTx;
  const parts: Parts = { ins: [...base.inputs], outs: [...base.outputs], imported: [], exported: [], baseCreds: decoded.credentials };
  if (base.NetworkId.value() !== ledger.networkID) throw new Refusal(`metadata failed verification: ${TEXTS.wrongNetworkID}`);
  if (base.BlockchainId.toString() !== ledger.chainIDs.P) throw new Refusal(`metadata failed verification: ${TEXTS.wrongChainID}`);
  if (base.memo.length > 256) throw new Refusal(`metadata failed verification: ${TEXTS.memoTooLarge(base.memo.length, 256)}`);
  checkSortedUnique(parts.ins);
  if (base.memo.length > 0) throw new Refusal(TEXTS.pMemoNotEmpty(base.memo.length));
  if (tx._type === 'pvm.ImportTx') {
    parts.imported = [...tx.ins];
    parts.source = tx.sourceChain.toString();
    if (parts.imported.length === 0) throw new Refusal('tx has no imported inputs');
    checkSortedUnique(parts.imported);
  }
  if (tx._type === 'pvm.ExportTx') {
    parts.exported = [...tx.outs];
    parts.destination = tx.destination.toString();
    if (parts.exported.length === 0) throw new Refusal(TEXTS.noExportOutputs);
  }
  return parts;
}

/** verifySubnetAuthorization: the last credential signs for the subnet's owner. */
function authorize(ledger: Ledger, decoded: DecodedTx, subnetID: string, auth: unknown): Uint8Array[][] {
  const subnet = ledger.subnets.get(subnetID);
  if (!subnet) throw new Refusal(TEXTS.notFound);
  if (subnet.conversion) throw new Refusal(`"${subnetID}" is immutable`);
  if (decoded.credentials.length === 0) throw new Refusal('wrong number of credentials');
  const indices = (auth as { values(): number[] }).values?.() ?? sigIndicesOf(auth) ?? [];
  try {
    verifyCredentials(decoded.unsignedHash, indices, decoded.credentials[decoded.credentials.length - 1]!, subnet.owner, ledger.time);
  } catch (error) {
    throw new Refusal(`unauthorized modification: ${(error as Error).message}`);
  }
  return decoded.credentials.slice(0, -1);
}

function verifyBody(ledger: Ledger, decoded: DecodedTx): Effects {
  const tx = decoded.tx;
  const supported = ['pvm.BaseTx', 'pvm.ImportTx', 'pvm.ExportTx', 'pvm.CreateSubnetTx', 'pvm.CreateChainTx'];
  if (!supported.includes(tx._type)) throw new Refusal(`${TEXTS.wrongTxType}: ${tx._type}`);
  const parts = partsOf(ledger, decoded);
  let apply: Effects['apply'];
  if (tx._type === 'pvm.CreateSubnetTx') {
    const owner = ownersOf(tx.subnetOwners)!;
    apply = (l) => l.subnets.set(decoded.id, { id: decoded.id, owner });
  }
  if (tx._type === 'pvm.CreateChainTx') {
    const subnetID = tx.subnetID.toString();
    parts.baseCreds = authorize(ledger, decoded, subnetID, tx.subnetAuth);
    const chain = { id: decoded.id, subnetID, name: tx.chainName.value() as string, vmID: tx.vmID.toString() as string };
    apply = (l) => l.blockchains.set(chain.id, chain);
  }
  const all = [...parts.ins, ...parts.imported];
  if (all.length !== parts.baseCreds.length) throw new Refusal(TEXTS.pWrongNumberOfCredentials(all.length, parts.baseCreds.length));
  const consumed: string[] = [];
  parts.ins.forEach((input, i) => {
    const id = inputID(input.utxoID.txID.toBytes(), input.utxoID.outputIdx.value());
    const stored = ledger.chains.P.utxos.get(id);
    if (!stored) throw new Refusal(pMissingUtxo(input.utxoID.txID.toString(), input.utxoID.outputIdx.value()));
    spend(ledger, decoded, input, stored, parts.baseCreds[i]!);
    consumed.push(id);
  });
  const effects: Effects = { consumed, produced: outputsOf('P', decoded, parts.outs), ...(apply ? { apply } : {}) };
  if (parts.source !== undefined) {
    sameSubnet(ledger, parts.source);
    const memory = ledger.shared.get(ledger.chainIDs.P);
    const ids = parts.imported.map((input, i) => {
      const id = inputID(input.utxoID.txID.toBytes(), input.utxoID.outputIdx.value());
      const stored = memory?.get(id);
      if (!stored || stored.source !== parts.source) throw new Refusal(`failed to get shared memory: ${TEXTS.notFound}`);
      spend(ledger, decoded, input, stored, parts.baseCreds[parts.ins.length + i]!);
      return id;
    });
    effects.imported = { source: parts.source, ids };
  }
  if (parts.destination !== undefined) {
    sameSubnet(ledger, parts.destination);
    const exported = outputsOf('P', decoded, parts.exported, parts.outs.length).map(([id, stored]): [string, AtomicUtxo] => [id, { ...stored, source: ledger.chainIDs.P }]);
    effects.exported = { destination: parts.destination, utxos: exported };
  }
  flow(ledger, all, [...parts.outs, ...parts.exported], dynamicFee(ledger, decoded.tx));
  return effects;
}

/** Verifies `decoded` on the P-Chain's current state; the node's full refusal text when it fails. */
export function verifyP(ledger: Ledger, decoded: DecodedTx): Effects {
  try {
    return verifyBody(ledger, decoded);
  } catch (error) {
    if (error instanceof Refusal) throw new Refusal(pIssue(error.message));
    throw error;
  }
}
