/**
 * The JSON form of the P-Chain's own transaction types (vms/platformvm/txs): Go's marshalling of each struct, its
 * embedded BaseTx flattened first, from the parts the writer shares (./tx-json.ts: owners, outputs, inputs,
 * validators, signers). The engine, which verifies and applies each type, is the one place that knows them.
 */
import type { GoJson } from '../world/json-go.ts';
import { type ChainTxJson, type Decoded, type TxJson, big, hexNC, id, int } from './tx-json.ts';

export const platformTxJson: ChainTxJson = (json: TxJson, tx: Decoded): GoJson | undefined => {
  const stake = () => tx.stake.map(json.transferableOutput);
  switch (tx._type) {
    case 'pvm.AddValidatorTx':
      return {
        ...json.base(tx),
        validator: json.validator(tx.validator),
        stake: stake(),
        rewardsOwner: json.output(tx.rewardsOwner),
        shares: int(tx.shares),
      };
    case 'pvm.AddDelegatorTx':
      return {
        ...json.base(tx),
        validator: json.validator(tx.validator),
        stake: stake(),
        rewardsOwner: json.output(tx.rewardsOwner),
      };
    case 'pvm.AddPermissionlessValidator':
      return {
        ...json.base(tx),
        validator: json.validator(tx.subnetValidator.validator),
        subnetID: id(tx.subnetValidator.subnetId),
        signer: json.signer(tx.signer),
        stake: stake(),
        validationRewardsOwner: json.output(tx.validatorRewardsOwner),
        delegationRewardsOwner: json.output(tx.delegatorRewardsOwner),
        shares: int(tx.shares),
      };
    case 'pvm.AddPermissionlessDelegator':
      return {
        ...json.base(tx),
        validator: json.validator(tx.subnetValidator.validator),
        subnetID: id(tx.subnetValidator.subnetId),
        stake: stake(),
        rewardsOwner: json.output(tx.delegatorRewardsOwner),
      };
    case 'pvm.AddSubnetValidator':
      return {
        ...json.base(tx),
        validator: { ...json.validator(tx.subnetValidator.validator), subnetID: id(tx.subnetValidator.subnetId) },
        subnetAuthorization: json.input(tx.subnetAuth),
      };
    case 'pvm.RemoveSubnetValidator':
      return {
        ...json.base(tx),
        nodeID: id(tx.nodeId),
        subnetID: id(tx.subnetId),
        subnetAuthorization: json.input(tx.subnetAuth),
      };
    case 'pvm.RewardValidatorTx':
      return { txID: id(tx.txId) };
    case 'pvm.CreateSubnetTx':
      return { ...json.base(tx), owner: json.output(tx.subnetOwners) };
    case 'pvm.CreateChainTx':
      return {
        ...json.base(tx),
        subnetID: id(tx.subnetID),
        chainName: tx.chainName.value(),
        vmID: id(tx.vmID),
        fxIDs: tx.fxIds.map(id),
        // A plain []byte: Go's encoding/json writes it in base64.
        genesisData: Buffer.from(tx.genesisData.bytes).toString('base64'),
        subnetAuthorization: json.input(tx.subnetAuth),
      };
    case 'pvm.TransferSubnetOwnershipTx':
      return {
        ...json.base(tx),
        subnetID: id(tx.subnetID),
        subnetAuthorization: json.input(tx.subnetAuth),
        newOwner: json.output(tx.subnetOwners),
      };
    case 'pvm.ConvertSubnetToL1Tx':
      return {
        ...json.base(tx),
        subnetID: id(tx.subnetID),
        chainID: id(tx.chainID),
        address: hexNC(tx.address.bytes),
        validators: tx.validators.map((v: Decoded) => ({
          nodeID: hexNC(v.nodeId.bytes),
          weight: big(v.weight),
          balance: big(v.balance),
          signer: json.signer(v.signer),
          remainingBalanceOwner: json.pChainOwner(v.remainingBalanceOwner),
          deactivationOwner: json.pChainOwner(v.deactivationOwner),
        })),
        subnetAuthorization: json.input(tx.subnetAuth),
      };
    case 'pvm.RegisterL1ValidatorTx':
      return {
        ...json.base(tx),
        balance: big(tx.balance),
        // A [96]byte array: encoding/json writes each byte as a number.
        proofOfPossession: [...tx.blsSignature.toBytes()],
        message: hexNC(tx.message.bytes),
      };
    case 'pvm.SetL1ValidatorWeightTx':
      return { ...json.base(tx), message: hexNC(tx.message.bytes) };
    case 'pvm.IncreaseL1ValidatorBalanceTx':
      return { ...json.base(tx), validationID: id(tx.validationId), balance: big(tx.balance) };
    case 'pvm.DisableL1ValidatorTx':
      return {
        ...json.base(tx),
        validationID: id(tx.validationId),
        disableAuthorization: json.input(tx.disableAuth),
      };
  }
  return undefined;
};
