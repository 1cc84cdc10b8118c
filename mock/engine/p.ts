/**
 * The P-Chain's verification of an issued transaction, as vms/platformvm/txs/executor/standard_tx_executor.go runs it
 * (syntactic check, memo empty since Durango, subnet authorization, dynamic fee, utxo/verifier.go's spend check), with
 * the wrapping that block/executor/manager.go, network/gossip.go and service.go add (./refusals.ts pIssue).
 * Staking transactions are in ./staking.ts.
 */
import type { TransferableInput, TransferableOutput } from '@avalabs/avalanchejs';
import { avalanche } from '../shared/avalanche.ts';
import { atomicKey, type World } from '../world/world.ts';
import type { Utxo } from '../world/types.ts';
import { gasPrice } from '../world/fees.ts';
import {
  type DecodedTx,
  STAKEABLE_LOCK_OUT,
  type Transaction,
  TRANSFER_OUTPUT,
  idText,
  keyOf,
  outputType,
  ownerOf,
} from './codec.ts';
import { type Effects, checkSortedUnique, exportsOf, noEffects, outputsOf } from './effects.ts';
import { Refusal, TEXTS, pIssue, pMissingUtxo, pWarp } from './refusals.ts';
import { bareRefusalRelease, requireUpgrade, staticFeeRelease } from './upgrades.ts';
import { infoReads } from '../world/reads-info.ts';
import { nextBlockFeeState } from './fee-state.ts';
import { WarpRefusal } from './warp.ts';
import { verifyConservation } from './locked.ts';
import { verifyCredentials, verifySpend } from './spend.ts';
import {
  checkOutputsSorted,
  verifyOwners,
  verifySigIndices,
  verifyTransferableInput,
  verifyTransferableOutput,
} from './syntax.ts';
import { sameSubnet } from './x.ts';

/** The fee the node requires of `tx` now: its complexity's gas (vms/platformvm/txs/fee) at the current gas price. */
export function dynamicFee(world: World, tx: Transaction): bigint {
  const { weights, minPrice, excessConversionConstant } = world.config.fee;
  // Like the node's VerifyTx: at the fee state the next block starts from.
  const price = gasPrice(minPrice, nextBlockFeeState(world).excess, excessConversionConstant);
  return avalanche().pvm.calculateFee(
    tx,
    { 0: weights[0], 1: weights[1], 2: weights[2], 3: weights[3] },
    price,
  ) as bigint;
}

/**
 * The fee of a release before Etna: static_calculator.go's fee per tx type (v1.11.x), from the network's static fee
 * config, which info.getTxFee answers. Etna's types were not in its visitor (ErrUnsupportedTx): they keep the dynamic
 * fee here, as no pre-Etna network activated them.
 */
function staticFee(world: World, tx: Transaction): bigint | undefined {
  const fees: Record<string, string> = infoReads(world).getTxFee();
  const primary = () => tx.subnetValidator.subnetId.toString() === world.chainIDs.P;
  const name = ((): string | undefined => {
    switch (tx._type) {
      case 'pvm.BaseTx':
      case 'pvm.ImportTx':
      case 'pvm.ExportTx':
      case 'pvm.RemoveSubnetValidator':
      case 'pvm.TransferSubnetOwnershipTx':
        return 'txFee';
      case 'pvm.CreateSubnetTx':
        return 'createSubnetTxFee';
      case 'pvm.CreateChainTx':
        return 'createBlockchainTxFee';
      case 'pvm.AddSubnetValidator':
        return 'addSubnetValidatorFee';
      case 'pvm.AddPermissionlessValidator':
        return primary() ? 'addPrimaryNetworkValidatorFee' : 'addSubnetValidatorFee';
      case 'pvm.AddPermissionlessDelegator':
        return primary() ? 'addPrimaryNetworkDelegatorFee' : 'addSubnetDelegatorFee';
    }
    return undefined;
  })();
  return name ? BigInt(fees[name]!) : undefined;
}

/** The fee `decoded` must burn: the release's static fee before Etna, the dynamic fee since. */
export function txFee(world: World, decoded: DecodedTx): bigint {
  return (
    (staticFeeRelease(decoded.release) ? staticFee(world, decoded.tx) : undefined) ?? dynamicFee(world, decoded.tx)
  );
}

/** utxo/verifier.go VerifySpendUTXOs for one input: the stakeable lock, then the fx's spend check. */
function spendP(
  world: World,
  decoded: DecodedTx,
  input: TransferableInput,
  utxo: Utxo,
  credential: Uint8Array[],
): void {
  const assetID = idText(input.assetId);
  if (utxo.assetID !== assetID) throw new Refusal(TEXTS.pAssetIDMismatch(assetID, utxo.assetID));
  const type = outputType(utxo);
  let inner: Transaction = input.input;
  if (inner._type === 'pvm.StakeableLockIn') {
    const locktime: bigint = inner.lockTime.value();
    if (locktime !== utxo.stakeableLocktime)
      throw new Refusal(TEXTS.locktimeMismatch(locktime, utxo.stakeableLocktime));
    inner = inner.transferableInput;
  } else if (world.time.get() < utxo.stakeableLocktime) throw new Refusal(TEXTS.lockedNotMarked);
  try {
    verifySpend(
      decoded.unsignedHash,
      inner,
      credential,
      utxo,
      world.time.get(),
      world.impersonated,
      type === STAKEABLE_LOCK_OUT ? TRANSFER_OUTPUT : type,
    );
  } catch (error) {
    throw error instanceof Refusal ? new Refusal(`failed to verify transfer: ${error.message}`) : error;
  }
}

/** Runs `check`, prefixing its refusal with `prefix` as the node's `fmt.Errorf("prefix: %w")` does. */
export function wrapped<T>(prefix: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw error instanceof Refusal ? new Refusal(`${prefix}: ${error.message}`) : error;
  }
}

/**
 * BaseTx.SyntacticVerify (vms/platformvm/txs/base_tx.go) and the post-Durango empty memo; with `memo` false the memo's
 * emptiness is left to the caller, whose transaction's own syntactic checks come between (see ./l1.ts).
 */
export function syntacticP(
  world: World,
  decoded: DecodedTx,
  memo = true,
): { ins: TransferableInput[]; outs: TransferableOutput[] } {
  const base = decoded.tx.baseTx.baseTx ?? decoded.tx.baseTx;
  if (base.NetworkId.value() !== world.network.networkID)
    throw new Refusal(`metadata failed verification: ${TEXTS.wrongNetworkID}`);
  if (idText(base.BlockchainId) !== world.chainIDs.P)
    throw new Refusal(`metadata failed verification: ${TEXTS.wrongChainID}`);
  if (base.memo.length > 256)
    throw new Refusal(`metadata failed verification: ${TEXTS.memoTooLarge(base.memo.length, 256)}`);
  for (const out of base.outputs) wrapped('output failed verification', () => verifyTransferableOutput(out));
  for (const input of base.inputs) wrapped('input failed verification', () => verifyTransferableInput(input));
  checkOutputsSorted(base.outputs, avalanche().utils.getManagerForVM('PVM').getDefaultCodec());
  checkSortedUnique(base.inputs);
  if (memo) verifyMemo(decoded);
  return { ins: [...base.inputs], outs: [...base.outputs] };
}

/** avax.VerifyMemoFieldLength after Durango, which the executors run once the tx's SyntacticVerify has passed. */
export function verifyMemo(decoded: DecodedTx): void {
  const base = decoded.tx.baseTx.baseTx ?? decoded.tx.baseTx;
  if (base.memo.length > 0) throw new Refusal(TEXTS.pMemoNotEmpty(base.memo.length));
}

/** verifySubnetAuthorization (subnet_tx_verification.go): the last credential signs for the subnet's owner. */
export function authorize(
  world: World,
  decoded: DecodedTx,
  subnetID: string,
  auth: { values(): number[] },
  poa = true,
): Uint8Array[][] {
  const subnet = world.subnets.get(subnetID);
  // state.go:978 GetSubnetOwner: another tx of the state is no subnet; an ID it does not hold is not found.
  if (!subnet) throw new Refusal(world.inPState(subnetID) ? `"${subnetID}" ${TEXTS.isNotSubnet}` : TEXTS.notFound);
  if (decoded.credentials.length === 0) throw new Refusal(TEXTS.authWrongNumberOfCredentials);
  try {
    verifyCredentials(
      decoded.unsignedHash,
      auth.values(),
      decoded.credentials[decoded.credentials.length - 1]!,
      subnet.owner,
      world.time.get(),
      world.impersonated,
    );
  } catch (error) {
    throw error instanceof Refusal ? new Refusal(`${TEXTS.unauthorized}: ${error.message}`) : error;
  }
  if (poa && subnet.conversion) throw new Refusal(`"${subnetID}" ${TEXTS.immutable}`);
  return decoded.credentials.slice(0, -1);
}

/** Spends `ins` from the P-Chain's UTXOs with `creds`; the keys consumed. */
export function spendAll(
  world: World,
  decoded: DecodedTx,
  ins: readonly TransferableInput[],
  creds: Uint8Array[][],
): string[] {
  if (ins.length !== creds.length) throw new Refusal(TEXTS.pWrongNumberOfCredentials(ins.length, creds.length));
  return ins.map((input, i) => {
    const key = keyOf(input);
    const utxo = world.utxos.P.get(key);
    if (!utxo) throw new Refusal(pMissingUtxo(input.utxoID.txID.toString(), input.utxoID.outputIdx.value()));
    spendP(world, decoded, input, utxo, creds[i]!);
    return key;
  });
}

/**
 * The P-Chain types the codec parses but a node does not accept (retired, or of an upgrade not yet active), refused
 * before any other check, in the words of standard_tx_executor.go and staker_tx_verification.go.
 */
function refuseRetired(tx: Transaction): void {
  switch (tx._type) {
    case 'pvm.AdvanceTimeTx':
    case 'pvm.RewardValidatorTx':
    case 'pvm.RewardAutoRenewedValidatorTx':
      throw new Refusal(TEXTS.wrongTxType);
    case 'pvm.AddValidatorTx':
      if (Buffer.from(tx.validator.nodeId.toBytes()).every((b) => b === 0)) throw new Refusal(TEXTS.emptyNodeID);
      throw new Refusal(TEXTS.addValidatorPostDurango);
    case 'pvm.AddDelegatorTx':
      throw new Refusal(TEXTS.addDelegatorPostDurango);
    case 'pvm.TransformSubnetTx':
      throw new Refusal(TEXTS.transformSubnetPostEtna);
  }
}

const MAX_NAME_LENGTH = 128;

/**
 * CreateChainTx.SyntacticVerify's own fields (create_chain_tx.go), checked before its BaseTx. Its 1 MiB genesis limit
 * is unreachable: the codec refuses any tx over 256 KiB first (see ./parse-errors.ts).
 */
function verifyChainFields(world: World, tx: Transaction): void {
  const name: string = tx.chainName.value();
  const ids: Uint8Array[] = tx.fxIds.map((id: { toBytes(): Uint8Array }) => id.toBytes());
  if (tx.subnetID.toString() === world.chainIDs.P) throw new Refusal(TEXTS.cantValidatePrimary);
  if (Buffer.byteLength(name) > MAX_NAME_LENGTH) throw new Refusal(TEXTS.chainNameTooLong);
  if (tx.vmID.toBytes().every((b: number) => b === 0)) throw new Refusal(TEXTS.invalidVMID);
  for (let i = 1; i < ids.length; i++)
    if (Buffer.compare(ids[i - 1]!, ids[i]!) >= 0) throw new Refusal(TEXTS.fxIDsNotSortedUnique);
  // Go ranges over the name's runes: ASCII letters, digits and spaces only.
  if (!/^[A-Za-z0-9 ]*$/.test(name)) throw new Refusal(TEXTS.illegalNameCharacter);
}

function standard(world: World, decoded: DecodedTx): Effects {
  const tx = decoded.tx;
  refuseRetired(tx);
  if (tx._type === 'pvm.CreateChainTx') verifyChainFields(world, tx);
  // ImportTx's and ExportTx's SyntacticVerify check for atomic inputs or outputs before their BaseTx.
  if (tx._type === 'pvm.ImportTx' && tx.ins.length === 0) throw new Refusal(TEXTS.pNoImportInputs);
  if (tx._type === 'pvm.ExportTx' && tx.outs.length === 0) throw new Refusal(TEXTS.noExportOutputs);
  // Each type's SyntacticVerify, then the memo (verifyMemo), then its executor's checks against the state.
  const { ins, outs } = syntacticP(world, decoded, false);
  let creds = decoded.credentials;
  const effects = noEffects();
  let imported: TransferableInput[] = [];
  let exported: TransferableOutput[] = [];
  switch (tx._type) {
    case 'pvm.BaseTx':
      verifyMemo(decoded);
      break;
    case 'pvm.ImportTx': {
      imported = [...tx.ins];
      for (const input of imported) wrapped('input failed verification', () => verifyTransferableInput(input));
      checkSortedUnique(imported);
      verifyMemo(decoded);
      const source: string = idText(tx.sourceChain);
      sameSubnet(world, source, 'P');
      break;
    }
    case 'pvm.ExportTx':
      exported = [...tx.outs];
      for (const out of exported) {
        wrapped('output failed verification', () => verifyTransferableOutput(out));
        if ((out.output as Transaction)._type === 'pvm.StakeableLockOut') throw new Refusal(TEXTS.wrongLocktime);
      }
      checkOutputsSorted(exported, avalanche().utils.getManagerForVM('PVM').getDefaultCodec());
      verifyMemo(decoded);
      sameSubnet(world, tx.destination.toString(), 'P');
      break;
    case 'pvm.CreateSubnetTx': {
      verifyOwners(tx.subnetOwners);
      verifyMemo(decoded);
      const subnet = { id: decoded.id, owner: ownerOf(tx.getSubnetOwners?.() ?? tx.subnetOwners)! };
      effects.apply = (w) => w.subnets.set(subnet.id, subnet);
      break;
    }
    case 'pvm.CreateChainTx': {
      const subnetID: string = tx.subnetID.toString();
      verifySigIndices(tx.subnetAuth);
      verifyMemo(decoded);
      creds = authorize(world, decoded, subnetID, tx.subnetAuth);
      const chain = {
        id: decoded.id,
        name: tx.chainName.value() as string,
        subnetID,
        vmID: tx.vmID.toString() as string,
      };
      effects.apply = (w) => w.chains.set(chain.id, chain);
      break;
    }
    default:
      throw new Refusal(TEXTS.wrongTxType);
  }
  effects.consumed = spendAll(world, decoded, ins, creds.slice(0, ins.length));
  if (creds.length !== ins.length + imported.length)
    throw new Refusal(TEXTS.pWrongNumberOfCredentials(ins.length + imported.length, creds.length));
  imported.forEach((input, i) => {
    const key = atomicKey(world.chainIDs.P, keyOf(input));
    const utxo = world.atomic.get(key);
    if (!utxo || utxo.sourceChain !== idText(tx.sourceChain))
      throw new Refusal(`failed to get shared memory: ${TEXTS.notFound}`);
    spendP(world, decoded, input, utxo, creds[ins.length + i]!);
    effects.imported.push(key);
  });
  verifyConservation(world, [...ins, ...imported], [...outs, ...exported], txFee(world, decoded));
  effects.produced = outputsOf('P', decoded, outs);
  if (exported.length > 0)
    effects.exported = exportsOf(world, 'P', decoded, exported, outs.length, tx.destination.toString());
  return effects;
}

/** Verifies `decoded` on the P-Chain's current state; the node's full refusal text when it fails. */
export function verifyP(
  world: World,
  decoded: DecodedTx,
  staking?: (world: World, decoded: DecodedTx) => Effects | undefined,
): Effects {
  try {
    requireUpgrade(world, decoded);
    return staking?.(world, decoded) ?? standard(world, decoded);
  } catch (error) {
    if (error instanceof WarpRefusal) throw new Refusal(pWarp(error.message));
    if (!(error instanceof Refusal)) throw error;
    throw new Refusal(
      bareRefusalRelease(decoded.release) ? `couldn't issue tx: ${error.message}` : pIssue(error.message, decoded.id),
    );
  }
}
