/**
 * The node's refusals of `issueTx`, verbatim from AvalancheGo's source (paths relative to its repository root, read at
 * 1cf1fc3d1711). Refusals compose the way the node wraps its errors (`fmt.Errorf("...: %w")`), so each function
 * returns the innermost text and the chain's issue path adds its prefixes (see ./x.ts and ./p.ts).
 */

/** Thrown with the node's message; `code` is the JSON-RPC error code the node answers (-32000 for a handler error). */
export class Refusal extends Error {
  readonly code = -32000;
}

/** vms/txs/mempool/mempool.go MaxTxSize: the largest transaction a mempool takes (64 KiB). */
export const MAX_TX_BYTES = 64 * 1024;

export const TEXTS = {
  // vms/components/avax/base_tx.go
  wrongNetworkID: 'tx has wrong network ID',
  wrongChainID: 'tx has wrong chain ID',
  memoTooLarge: (size: number, max: number) => `memo exceeds maximum length: ${size} > ${max}`,
  // vms/components/avax/flow_checker.go
  insufficientFunds: 'insufficient funds',
  // vms/components/avax/transferables.go
  outputsNotSorted: 'outputs not sorted',
  inputsNotSortedUnique: 'inputs not sorted and unique',
  // vms/components/avax/asset.go
  emptyAssetID: 'empty asset ID is not valid',
  // database/errors.go (a missing or spent UTXO)
  notFound: 'not found',
  // vms/secp256k1fx/fx.go
  mismatchedAmounts: (utxo: bigint, input: bigint) => `utxo amount and input amount are not equal: ${utxo} != ${input}`,
  timelocked: 'output is time locked',
  tooManySigners: 'input has more signers than expected',
  tooFewSigners: 'input has less signers than expected',
  signersMismatch: 'input expected a different number of signers than provided in the credential',
  indexOutOfBounds: 'input referenced a nonexistent address in the output',
  wrongSig: (expected: string, got: string) =>
    `wrong signature: expected signature from ${expected} but got from ${got}`,
  wrongUtxoType: 'wrong utxo type',
  wrongInputType: 'wrong input type',
  wrongOpType: 'wrong operation type',
  wrongCredentialType: 'wrong credential type',
  wrongNumberOfUTXOs: 'wrong number of utxos for the operation',
  wrongMintCreated: 'wrong mint output created from the operation',
  // vms/secp256k1fx/output_owners.go, input.go, transfer_output.go, transfer_input.go
  outputUnspendable: 'output is unspendable',
  outputUnoptimized: 'output representation should be optimized',
  addrsNotSortedUnique: 'addresses not sorted and unique',
  sigIndicesNotSortedUnique: 'address indices not sorted and unique',
  noValueOutput: 'output has no value',
  noValueInput: 'input has no value',
  // vms/nftfx/fx.go, transfer_output.go
  nftWrongNumberOfUTXOs: 'wrong number of UTXOs for the operation',
  wrongUniqueID: 'wrong unique ID provided',
  wrongBytes: 'wrong bytes provided',
  cantTransfer: 'cant transfer with this fx',
  payloadTooLarge: 'payload too large',
  // vms/propertyfx/fx.go
  wrongMintOutputProvided: 'wrong mint output provided',
  // vms/platformvm/stakeable/stakeable_lock.go
  invalidLocktime: 'invalid locktime',
  nestedStakeableLocks: "shouldn't nest stakeable locks",
  // utils/crypto/secp256k1/secp256k1.go
  invalidSig: 'invalid signature',
  mutatedSig: 'signature was mutated from its original format',
  // vms/components/verify/subnet.go SameSubnet (a chain the P-Chain does not know: its GetSubnetID fails)
  sameChainID: 'same chainID',
  unknownPeerChain: (chainID: string) => `failed to get subnet of "${chainID}": not found`,
  // vms/txs/mempool/mempool.go
  conflicts: (txID: string) => `tx conflicts with other tx: ${txID}`,
  conflictsBare: 'tx conflicts with other tx',
  // ErrTxTooLarge and ErrMempoolFull, as Add words them
  tooLarge: (txID: string, size: number) => `tx too large: ${txID} size (${size}) > max size (${MAX_TX_BYTES})`,
  mempoolFull: (txID: string, size: number, available: number) =>
    `mempool is full: ${txID} size (${size}) > available space (${available})`,
  // vms/avm/txs/executor/syntactic_verifier.go
  wrongNumberOfCredentials: (creds: number, inputs: number) => `wrong number of credentials: ${creds} != ${inputs}`,
  noImportInputs: 'no import inputs',
  noExportOutputs: 'no export outputs',
  nameTooShort: 'name is too short, minimum size is 1',
  nameTooLong: 'name is too long, maximum size is 128',
  symbolTooShort: 'symbol is too short, minimum size is 1',
  symbolTooLong: 'symbol is too long, maximum size is 4',
  noFxs: 'assets must support at least one Fx',
  denominationTooLarge: 'denomination is too large',
  unexpectedWhitespace: 'unexpected whitespace provided',
  illegalName: "asset's name must be made up of only letters and numbers",
  illegalSymbol: "asset's symbol must be all upper case letters",
  initialStatesNotSortedUnique: 'initial states not sorted and unique',
  noOperations: 'an operationTx must have at least one operation',
  doubleSpend: 'inputs attempt to double spend an input',
  operationsNotSortedUnique: 'operations not sorted and unique',
  // vms/avm/txs/operation.go, initial_state.go
  utxoIDsNotSortedUnique: 'utxo IDs not sorted and unique',
  unknownFx: 'unknown feature extension',
  // vms/avm/txs/executor/semantic_verifier.go
  assetIDMismatch: "asset IDs in the input don't match the utxo",
  notAnAsset: 'not an asset',
  incompatibleFx: 'incompatible feature extension',
  // vms/platformvm/utxo/verifier.go
  pWrongNumberOfCredentials: (inputs: number, creds: number) =>
    `wrong number of credentials: ${inputs} inputs != ${creds} credentials`,
  pAssetIDMismatch: (claimed: string, real: string) =>
    `input asset ID does not match UTXO asset ID: ${claimed} != ${real}`,
  lockedNotMarked: 'locked funds not marked as locked',
  locktimeMismatch: (input: bigint, utxo: bigint) => `input locktime does not match UTXO locktime: ${input} != ${utxo}`,
  insufficientUnlocked: (needed: bigint, assetID: string) =>
    `insufficient unlocked funds: needs ${needed} more ${assetID}`,
  insufficientLocked: (owner: string, needed: bigint, assetID: string, locktime: bigint) =>
    `insufficient locked funds: ${owner} needs ${needed} more ${assetID} for locktime ${locktime}`,
  // vms/platformvm/txs/executor/staker_tx_verification.go (Primary Network rules: genesis/genesis_<network>.go)
  weightTooSmall: 'weight of this validator is too low',
  weightTooLarge: 'weight of this validator is too large',
  insufficientDelegationFee: 'staker charges an insufficient delegation fee',
  stakeTooShort: 'staking period is too short',
  stakeTooLong: 'staking period is too long',
  flowCheckFailed: 'flow check failed',
  notValidator: "isn't a current or pending validator",
  removePermissionless: 'attempting to remove permissionless validator',
  periodMismatch: 'proposed staking period is not inside dependent staking period',
  overDelegated: 'validator would be over delegated',
  wrongStakedAsset: (expected: string, got: string) => `incorrect staked assetID: ${expected} != ${got}`,
  // vms/platformvm/txs/add_permissionless_{validator,delegator}_tx.go, add_validator_tx.go SyntacticVerify
  baseTxFailed: 'failed to verify BaseTx',
  noStake: 'no stake',
  tooManyShares: 'a staker can only require at most 1000000 shares from delegators',
  signerOrOwners: 'failed to verify validator, signer, or rewards owners',
  validatorOrOwner: 'failed to verify validator or rewards owner',
  invalidSigner: (hasKey: boolean, primary: boolean) =>
    `invalid signer: hasKey=${hasKey} != isPrimaryNetwork=${primary}`,
  multipleStakedAssets: (first: string, other: string) => `multiple staked assets: "${first}" and "${other}"`,
  validatorWeightMismatch: (weight: bigint, stake: bigint) =>
    `validator weight mismatch: weight ${weight} != stake ${stake}`,
  delegatorWeightMismatch: (weight: bigint, stake: bigint) =>
    `delegator weight is not equal to total stake weight, delegator weight ${weight} total stake weight ${stake}`,
  // vms/platformvm/txs/create_chain_tx.go SyntacticVerify
  cantValidatePrimary: "new blockchain can't be validated by primary network",
  chainNameTooLong: 'name too long',
  invalidVMID: 'invalid VM ID',
  fxIDsNotSortedUnique: 'feature extensions IDs must be sorted and unique',
  illegalNameCharacter: 'illegal name character',
  // utils/math/safe_math.go
  overflow: 'overflow',
  // vms/platformvm/txs/validator.go, subnet_validator.go, add_subnet_validator_tx.go, remove_subnet_validator_tx.go,
  // transfer_subnet_ownership_tx.go SyntacticVerify
  badSubnetID: "subnet ID can't be primary network ID",
  addPrimaryWithSubnetTx: "can't add primary network validator with AddSubnetValidatorTx",
  removePrimaryWithSubnetTx: "can't remove primary network validator with RemoveSubnetValidatorTx",
  transferPermissionless: 'cannot transfer ownership of a permissionless subnet',
  duplicateValidator: (nodeID: string, subnetID: string) => `duplicate validator: ${nodeID} on ${subnetID}`,
  noValidator: (nodeID: string, subnetID: string) =>
    `failed to fetch the validator for ${nodeID} on ${subnetID}: not found`,
  // vms/platformvm/txs/base_tx.go (memo after Durango: vms/components/avax/base_tx.go VerifyMemoFieldLength)
  pMemoNotEmpty: (size: number) => `memo exceeds maximum length: ${size} > 0`,
  // vms/platformvm/txs/executor/standard_tx_executor.go, staker_tx_verification.go, subnet_tx_verification.go
  wrongTxType: 'wrong transaction type',
  addValidatorPostDurango: 'AddValidatorTx is not permitted post-Durango',
  addDelegatorPostDurango: 'AddDelegatorTx is not permitted post-Durango',
  transformSubnetPostEtna: 'TransformSubnetTx is not permitted post-Etna',
  emptyNodeID: 'validator nodeID cannot be empty',
  pNoImportInputs: 'tx has no imported inputs',
  // vms/platformvm/txs/export_tx.go
  wrongLocktime: 'wrong locktime reported',
  authWrongNumberOfCredentials: 'should have the same number of credentials as inputs',
  unauthorized: 'unauthorized modification',
  immutable: 'is immutable',
  // vms/platformvm/state/state.go
  isNotSubnet: 'is not a subnet',
} as const;

/** X-Chain `avm.issueTx`: vms/avm/txs/executor/semantic_verifier.go wraps an input's failure once. */
export const xTransfer = (inner: string) => `failed to verify transfer: ${inner}`;
/** X-Chain: vms/avm/txs/executor/semantic_verifier.go verifyTransfer, a UTXO the chain does not have. */
export const xMissingUtxo = (inputID: string) => xTransfer(`failed to get utxo ${inputID}: ${TEXTS.notFound}`);
/**
 * P-Chain `platform.issueTx`: platformvm/service.go, network/gossip.go and block/executor/manager.go wrap each refusal,
 * and txs/executor/standard_tx_executor.go StandardTx names the transaction.
 */
export const pIssue = (inner: string, txID: string) =>
  `couldn't issue tx: failed verification: failed execution: standard tx ${txID} failed execution: ${inner}`;
/** P-Chain: block/executor/manager.go VerifyTx, a warp message whose signature fails (before execution). */
export const pWarp = (inner: string) =>
  `couldn't issue tx: failed verification: failed verifying warp messages: ${inner}`;
/** P-Chain: vms/platformvm/utxo/verifier.go VerifySpend, a UTXO the chain does not have (UTXOID prints `txID:index`). */
export const pMissingUtxo = (txID: string, index: number) =>
  `failed to read consumed UTXO ${txID}:${index} due to: ${TEXTS.notFound}`;
