/**
 * The genesis transactions of a world, laid out as AvalancheGo's codecs write them (linearcodec: big-endian integers,
 * u32-counted lists, u16-counted strings, type IDs before interfaces): the AVAX asset's CreateAssetTx (avm.NewGenesis,
 * thousands of outputs on Mainnet) and each initial staker's AddValidatorTx or AddPermissionlessValidatorTx. Written
 * here rather than through @avalabs/avalanchejs because start-up must not load or wait for the codec (it took most of
 * a second for Mainnet's holders); test/mock/world.test.ts compares both with avalanchejs 5.2.0 byte for byte.
 */
import { cb58Decode } from '../../generators/formats.ts';
import { idBytes, idOf, outputLength, writeOutput } from './codec.ts';
import type { Owner } from './types.ts';

/** linearcodec type IDs: AVM CreateAssetTx, P-Chain AddValidatorTx, AddPermissionlessValidatorTx, OutputOwners, BLS. */
const CREATE_ASSET_TX = 1;
const ADD_VALIDATOR_TX = 0x0c;
const ADD_PERMISSIONLESS_VALIDATOR_TX = 0x19;
const OUTPUT_OWNERS = 0x0b;
const PROOF_OF_POSSESSION = 0x1c;
/** P-Chain CreateChainTx and secp256k1fx.Input (the empty subnet authorization of a genesis chain). */
const CREATE_CHAIN_TX = 0x0f;
const SECP256K1_INPUT = 0x0a;

/** Appends big-endian fields to a growing list of chunks. */
class Writer {
  private readonly chunks: Uint8Array[] = [];

  bytes(value: Uint8Array): this {
    this.chunks.push(value);
    return this;
  }

  u8(value: number): this {
    return this.bytes(Uint8Array.of(value));
  }

  u16(value: number): this {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(value);
    return this.bytes(b);
  }

  u32(value: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(value);
    return this.bytes(b);
  }

  u64(value: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(value);
    return this.bytes(b);
  }

  text(value: string): this {
    const b = Buffer.from(value, 'utf8');
    return this.u16(b.length).bytes(b);
  }

  /** A secp256k1fx.TransferOutput (in a stakeable.LockOut when locked), type ID first. */
  output(amount: bigint, owner: Owner, stakeableLocktime = 0n): this {
    const b = Buffer.alloc(outputLength(owner, stakeableLocktime));
    writeOutput(b, 0, amount, owner, stakeableLocktime);
    return this.bytes(b);
  }

  /** A u32-counted byte slice, as Go's []byte. */
  slice(value: Uint8Array): this {
    return this.u32(value.length).bytes(value);
  }

  /** secp256k1fx.OutputOwners as an interface value: type ID, locktime, threshold, addresses. */
  owners(owner: Owner): this {
    this.u32(OUTPUT_OWNERS).u64(owner.locktime).u32(owner.threshold).u32(owner.addresses.length);
    for (const address of owner.addresses) this.bytes(Buffer.from(address, 'hex'));
    return this;
  }

  /** avax.BaseTx without inputs or outputs: network, blockchain, no outputs, no inputs, memo. */
  baseTx(networkID: number, blockchainID: string, memo: Uint8Array): this {
    return this.u32(networkID).bytes(idBytes(blockchainID)).u32(0).u32(0).u32(memo.length).bytes(memo);
  }

  done(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

const single = (address: string): Owner => ({ locktime: 0n, threshold: 1, addresses: [address] });

/** The AVAX asset's genesis CreateAssetTx, signed with no credentials: its holders' outputs, ETH addresses as memo. */
export function avaxGenesisTx(
  networkID: number,
  emptyID: string,
  holders: Array<{ address: string; ethAddr: string; initialAmount: bigint }>,
): { id: string; bytes: Uint8Array } {
  const memo = Buffer.concat(holders.map((h) => Buffer.from(h.ethAddr, 'hex')));
  const w = new Writer().u16(0).u32(CREATE_ASSET_TX).baseTx(networkID, emptyID, memo);
  w.text('Avalanche').text('AVAX').u8(9);
  // One initial state (fx 0, secp256k1fx) holding every holder's output, when there are holders.
  if (holders.length === 0) w.u32(0);
  else {
    w.u32(1).u32(0).u32(holders.length);
    for (const h of holders) w.output(h.initialAmount, single(h.address));
  }
  const bytes = w.u32(0).done();
  return { id: idOf(bytes), bytes };
}

export interface GenesisStaker {
  nodeID: string;
  delegationFee: number;
  /** 0x hex; empty for a staker without a BLS key. */
  publicKey: string;
  proofOfPossession: string;
}

/**
 * A genesis staker's transaction, signed with no credentials: an AddPermissionlessValidatorTx of the Primary Network
 * with its BLS key, or an AddValidatorTx without one. `stake` are its staked outputs (AVAX), `owner` its reward owner.
 */
export function genesisValidatorTx(
  networkID: number,
  emptyID: string,
  avaxAssetID: string,
  staker: GenesisStaker,
  start: bigint,
  end: bigint,
  stake: Array<{ address: string; amount: bigint; locktime: bigint }>,
  owner: Owner,
): { id: string; bytes: Uint8Array } {
  const permissionless = staker.publicKey !== '';
  const nodeID = cb58Decode(staker.nodeID.slice('NodeID-'.length));
  if (nodeID?.length !== 20) throw new Error(`not a node ID: ${staker.nodeID}`);
  const weight = stake.reduce((sum, s) => sum + s.amount, 0n);
  const w = new Writer()
    .u16(0)
    .u32(permissionless ? ADD_PERMISSIONLESS_VALIDATOR_TX : ADD_VALIDATOR_TX)
    .baseTx(networkID, emptyID, new Uint8Array())
    .bytes(nodeID)
    .u64(start)
    .u64(end)
    .u64(weight);
  if (permissionless) {
    w.bytes(idBytes(emptyID)).u32(PROOF_OF_POSSESSION);
    w.bytes(Buffer.from(staker.publicKey.replace(/^0x/, ''), 'hex'));
    w.bytes(Buffer.from(staker.proofOfPossession.replace(/^0x/, ''), 'hex'));
  }
  w.u32(stake.length);
  const asset = idBytes(avaxAssetID);
  for (const s of stake) w.bytes(asset).output(s.amount, single(s.address), s.locktime > start ? s.locktime : 0n);
  w.owners(owner);
  if (permissionless) w.owners(owner);
  const bytes = w.u32(staker.delegationFee).u32(0).done();
  return { id: idOf(bytes), bytes };
}

/**
 * The X-Chain's genesis data (avm.Genesis.Bytes): codec version, one GenesisAsset, its alias "AVAX" and the AVAX
 * CreateAssetTx's fields, which are the asset transaction's bytes without version, type ID and credentials.
 */
export function avmGenesisBytes(avaxAssetTx: Uint8Array): Uint8Array {
  const fields = avaxAssetTx.subarray(2 + 4, avaxAssetTx.length - 4);
  return new Writer().u16(0).u32(1).text('AVAX').bytes(fields).done();
}

/**
 * A chain created at genesis (vms/platformvm/genesis/genesis.go New): a CreateChainTx of the Primary Network from
 * the P-Chain, with no inputs, outputs or memo, an empty secp256k1fx.Input as subnet authorization and no
 * credentials. Its ID is the chain's ID.
 */
export function genesisChainTx(
  networkID: number,
  emptyID: string,
  chain: { name: string; vmID: string; fxIDs: readonly string[]; genesisData: Uint8Array },
): { id: string; bytes: Uint8Array } {
  const w = new Writer().u16(0).u32(CREATE_CHAIN_TX).baseTx(networkID, emptyID, new Uint8Array());
  w.bytes(idBytes(emptyID)).text(chain.name).bytes(idBytes(chain.vmID)).u32(chain.fxIDs.length);
  for (const fx of chain.fxIDs) w.bytes(idBytes(fx));
  const bytes = w.slice(chain.genesisData).u32(SECP256K1_INPUT).u32(0).u32(0).done();
  return { id: idOf(bytes), bytes };
}
