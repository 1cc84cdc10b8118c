/**
 * The node's refusals of `issueTx`, verbatim from AvalancheGo's source (paths relative to its repository root, read at
 * 1cf1fc3d1711). Refusals compose the way the node wraps its errors (`fmt.Errorf("...: %w")`), so each function
 * returns the innermost text and the chain's issue path adds its prefixes (see ./x.ts and ./p.ts).
 */

/** Thrown with the node's message; `code` is the JSON-RPC error code the node answers (-32000 for a handler error). */
export class Refusal extends Error {
  readonly code = -32000;
}

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
  // utils/crypto/secp256k1/secp256k1.go
  invalidSig: 'invalid signature',
  mutatedSig: 'signature was mutated from its original format',
  // vms/components/verify/subnet.go SameSubnet (a chain the P-Chain does not know: its GetSubnetID fails)
  sameChainID: 'same chainID',
  unknownPeerChain: (chainID: string) => `failed to get subnet of "${chainID}": not found`,
  // vms/txs/mempool/mempool.go
  conflicts: (txID: string) => `tx conflicts with other tx: ${txID}`,
  duplicate: (txID: string) => `duplicate tx: ${txID}`,
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
  // vms/avm/txs/executor/semantic_verifier.go
  assetIDMismatch: "asset IDs in the input don't match the utxo",
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
  duplicateValidator: (nodeID: string, subnetID: string) => `duplicate validator: ${nodeID} on ${subnetID}`,
  noValidator: (nodeID: string, subnetID: string) =>
    `failed to fetch the validator for ${nodeID} on ${subnetID}: not found`,
  // vms/platformvm/txs/base_tx.go (memo after Durango: vms/components/avax/base_tx.go VerifyMemoFieldLength)
  pMemoNotEmpty: (size: number) => `memo exceeds maximum length: ${size} > 0`,
  // vms/platformvm/txs/executor/standard_tx_executor.go, staker_tx_verification.go, subnet_tx_verification.go
  wrongTxType: 'unsupported tx type',
  pNoImportInputs: 'tx has no imported inputs',
  authWrongNumberOfCredentials: 'should have the same number of credentials as inputs',
  unauthorized: 'unauthorized modification',
  immutable: 'is immutable',
} as const;

/** X-Chain `avm.issueTx`: vms/avm/txs/executor/semantic_verifier.go wraps an input's failure once. */
export const xTransfer = (inner: string) => `failed to verify transfer: ${inner}`;
/** X-Chain: vms/avm/txs/executor/semantic_verifier.go verifyTransfer, a UTXO the chain does not have. */
export const xMissingUtxo = (inputID: string) => xTransfer(`failed to get utxo ${inputID}: ${TEXTS.notFound}`);
/**
 * P-Chain `platform.issueTx`: platformvm/service.go, network/gossip.go and block/executor/manager.go wrap each refusal.
 */
export const pIssue = (inner: string) => `couldn't issue tx: failed verification: failed execution: ${inner}`;
/**
 * P-Chain: vms/platformvm/utxo/verifier.go VerifySpend, a UTXO the chain does not have (UTXOID prints `txID:index`).
 */
export const pMissingUtxo = (txID: string, index: number) =>
  `failed to read consumed UTXO ${txID}:${index} due to: ${TEXTS.notFound}`;
