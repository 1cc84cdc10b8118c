/**
 * A wallet for tests, like Hardhat's signers: one funded key that builds, signs and issues the common X-, P- and
 * C-Chain transactions with avalanchejs over the node's own HTTP API (as an app would), and waits for their
 * acceptance (./wallet-key.ts). No codec glue in a test: amounts are bigints (nAVAX on X and P and between chains, wei
 * on the C-Chain's EVM), addresses are strings, the answer is the transaction's ID.
 */
import { randomBytes } from 'node:crypto';
import { bech32Decode, cb58Decode } from '../../generators/formats.ts';
import { proofOfPossession } from '../engine/bls.ts';
import { appendIndex } from '../engine/l1.ts';
import { avalanche } from '../shared/avalanche.ts';
import { ethCall, sendEvmTransfer } from './evm-transfer.ts';
import { ACCEPTANCE_WAIT_MS, type Chain, KeyOnNode, type SdkContext } from './wallet-key.ts';

/** A validator of a subnet's conversion to an L1: its BLS key is `blsSecretKey`'s (default a new one). */
export interface L1ValidatorSpec {
  nodeID: string;
  weight: bigint;
  /** nAVAX for the continuous fee. */
  balance: bigint;
  blsSecretKey?: Uint8Array;
}
const DAY = 24n * 60n * 60n;

/** The 20 bytes an `X-…`/`P-…` address (or a bare bech32 one) names. */
function addressBytes(address: string): Uint8Array {
  const decoded = bech32Decode(address.slice(address.indexOf('-') + 1));
  if (decoded?.payload.length !== 20) throw new Error(`${JSON.stringify(address)} is not an address`);
  return decoded.payload;
}

export class Wallet extends KeyOnNode {
  /**
   * The key's balance of AVAX (or `assetID`) on the chain: on X and P in nAVAX, locked UTXOs included; on C the EVM
   * balance, in wei.
   */
  async balance(chain: Chain, assetID?: string): Promise<bigint> {
    if (chain === 'C') {
      if (assetID !== undefined) throw new Error('the C-Chain wallet holds AVAX only');
      return BigInt((await ethCall(this.url, 'eth_getBalance', [this.address.C, 'latest'])) as string);
    }
    const asset = assetID ?? (await this.sdkContext()).avaxAssetID;
    const utxos = await this.utxos(chain);
    return utxos.reduce((sum, u) => {
      const output = u.output as { amount?: () => bigint };
      return u.getAssetId() === asset && output.amount ? sum + output.amount() : sum;
    }, 0n);
  }

  /**
   * Sends `amount` of AVAX (or `assetID`) to `to` on the chain: on X and P in nAVAX; on C an EVM transfer of `amount`
   * wei to a `0x…` address (the answer is its hash).
   */
  async send(chain: Chain, to: string, amount: bigint, assetID?: string): Promise<string> {
    if (chain === 'C') {
      if (assetID !== undefined) throw new Error('the C-Chain wallet sends AVAX only');
      return sendEvmTransfer(this.url, this.key, this.address.C, to, amount, ACCEPTANCE_WAIT_MS);
    }
    const { avm, pvm, TransferableOutput } = avalanche();
    const context = await this.sdkContext();
    const outputs = [TransferableOutput.fromNative(assetID ?? context.avaxAssetID, amount, [addressBytes(to)])];
    const utxos = await this.utxos(chain);
    const unsigned =
      chain === 'X'
        ? avm.newBaseTx(context, [this.bytes], utxos, outputs)
        : pvm.newBaseTx({ ...(await this.pBase(utxos)), outputs }, context);
    return this.issue(chain, unsigned);
  }

  /**
   * Exports `amount` nAVAX from one chain to another (to this key); `importFrom` brings it in on the other side. From
   * C the EVM balance pays `amount` and the fee (at the base fee).
   */
  async exportTo(from: Chain, to: Chain, amount: bigint): Promise<string> {
    const { avm, evm, pvm, TransferableOutput } = avalanche();
    if (from === to) throw new Error(`an export goes to another chain than ${from}`);
    const context = await this.sdkContext();
    const destination = chainIDOf(context, to);
    if (from === 'C') {
      const nonce = BigInt((await ethCall(this.url, 'eth_getTransactionCount', [this.address.C, 'latest'])) as string);
      const baseFee = await this.cBaseFee();
      return this.issue(
        'C',
        evm.newExportTxFromBaseFee(context, baseFee, amount, destination, this.ethBytes, [this.bytes], nonce),
      );
    }
    const outputs = [TransferableOutput.fromNative(context.avaxAssetID, amount, [this.bytes])];
    const utxos = await this.utxos(from);
    const unsigned =
      from === 'X'
        ? avm.newExportTx(context, destination, [this.bytes], utxos, outputs)
        : pvm.newExportTx({ ...(await this.pBase(utxos)), destinationChainId: destination, outputs }, context);
    return this.issue(from, unsigned);
  }

  /** Imports every UTXO exported to this key from `from` onto `to` (on C: into its EVM balance, less the fee). */
  async importFrom(from: Chain, to: Chain): Promise<string> {
    const { avm, evm, pvm } = avalanche();
    if (from === to) throw new Error(`an import comes from another chain than ${to}`);
    const context = await this.sdkContext();
    const source = chainIDOf(context, from);
    const utxos = await this.utxos(to, source);
    if (utxos.length === 0) throw new Error(`nothing exported from ${from} to ${this.address[to]} to import`);
    const unsigned =
      to === 'C'
        ? evm.newImportTxFromBaseFee(context, this.ethBytes, [this.bytes], utxos, source, await this.cBaseFee())
        : to === 'X'
          ? avm.newImportTx(context, source, utxos, [this.bytes], [this.bytes])
          : pvm.newImportTx(
              { ...(await this.pBase(utxos)), sourceChainId: source, toAddressesBytes: [this.bytes] },
              context,
            );
    return this.issue(to, unsigned);
  }

  /** Delegates `amount` nAVAX to a Primary Network validator until `end` (Unix seconds; default in 14 days). */
  async delegate(nodeID: string, amount: bigint, end?: bigint): Promise<string> {
    const { pvm, networkIDs } = avalanche();
    const context = await this.sdkContext();
    const props = {
      ...(await this.pBase(await this.utxos('P'))),
      nodeId: nodeID,
      start: 0n,
      end: end ?? (await this.chainTime()) + 14n * DAY,
      weight: amount,
      subnetId: networkIDs.PrimaryNetworkID.toString(),
      rewardAddresses: [this.bytes],
    };
    return this.issue('P', pvm.newAddPermissionlessDelegatorTx(props, context));
  }

  /**
   * Stakes `amount` nAVAX as a Primary Network validator of `nodeID` until `end` (default in 14 days), with a new BLS
   * key (or `blsSecretKey`) and `shares` of delegators' rewards in ten-thousandths of a percent (default 2%).
   */
  async addValidator(
    nodeID: string,
    amount: bigint,
    options: { end?: bigint; shares?: number; blsSecretKey?: Uint8Array } = {},
  ): Promise<string> {
    const { pvm, networkIDs } = avalanche();
    const context = await this.sdkContext();
    const { publicKey, proof } = proofOfPossession(options.blsSecretKey ?? randomBytes(32));
    const props = {
      ...(await this.pBase(await this.utxos('P'))),
      nodeId: nodeID,
      start: 0n,
      end: options.end ?? (await this.chainTime()) + 14n * DAY,
      weight: amount,
      subnetId: networkIDs.PrimaryNetworkID.toString(),
      rewardAddresses: [this.bytes],
      delegatorRewardsOwner: [this.bytes],
      shares: options.shares ?? 20_000,
      publicKey,
      signature: proof,
    };
    return this.issue('P', pvm.newAddPermissionlessValidatorTx(props, context));
  }

  /** Creates a subnet this key owns; its ID (the transaction's). */
  async createSubnet(): Promise<string> {
    const { pvm } = avalanche();
    const props = { ...(await this.pBase(await this.utxos('P'))), subnetOwners: [this.bytes] };
    return this.issue('P', pvm.newCreateSubnetTx(props, await this.sdkContext()));
  }

  /** Creates a chain on a subnet this key owns; its ID (the transaction's). */
  async createChain(
    subnetID: string,
    name: string,
    vmID: string,
    genesis: Record<string, unknown> = {},
  ): Promise<string> {
    const { pvm } = avalanche();
    const props = {
      ...(await this.pBase(await this.utxos('P'))),
      subnetId: subnetID,
      chainName: name,
      vmId: vmID,
      fxIds: [],
      genesisData: genesis,
      subnetAuth: [0],
    };
    return this.issue('P', pvm.newCreateChainTx(props, await this.sdkContext()), { authorizes: true });
  }

  /**
   * Converts a subnet this key owns to an L1 managed by `managerAddress` (`0x…`) on `chainID`, with its first
   * validators (each with a BLS key and its proof of possession; this key gets their remaining balances and may
   * disable them). The transaction's ID, and each validator's validation ID in the order given.
   */
  async convertSubnetToL1(
    subnetID: string,
    chainID: string,
    managerAddress: string,
    validators: readonly L1ValidatorSpec[],
  ): Promise<{ txID: string; validationIDs: string[] }> {
    const { pvm, pvmSerial, L1Validator, PChainOwner } = avalanche();
    if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(managerAddress)) throw new Error('managerAddress must be 0x-prefixed hex');
    // The transaction lists validators sorted by node ID bytes; a validation ID follows that position.
    const nodeBytes = (v: L1ValidatorSpec) => Buffer.from(cb58Decode(v.nodeID.replace(/^NodeID-/, '')) ?? []);
    const sorted = [...validators].sort((a, b) => Buffer.compare(nodeBytes(a), nodeBytes(b)));
    const owner = () => PChainOwner.fromNative([this.bytes], 1);
    const props = {
      ...(await this.pBase(await this.utxos('P'))),
      subnetId: subnetID,
      chainId: chainID,
      address: Buffer.from(managerAddress.slice(2), 'hex'),
      validators: sorted.map((v) => {
        const { publicKey, proof } = proofOfPossession(v.blsSecretKey ?? randomBytes(32));
        const signer = new pvmSerial.ProofOfPossession(publicKey, proof);
        return L1Validator.fromNative(v.nodeID, v.weight, v.balance, signer, owner(), owner());
      }),
      subnetAuth: [0],
    };
    const unsigned = pvm.newConvertSubnetToL1Tx(props, await this.sdkContext());
    const txID = await this.issue('P', unsigned, { authorizes: true });
    return { txID, validationIDs: validators.map((v) => appendIndex(subnetID, sorted.indexOf(v))) };
  }
}

const chainIDOf = (context: SdkContext, chain: Chain): string =>
  chain === 'X' ? context.xBlockchainID : chain === 'P' ? context.pBlockchainID : context.cBlockchainID;
