/**
 * The AVM's static service (`/ext/vm/avm`, vms/avm/static_service.go at v1.13.0): `avm.buildGenesis` encodes the
 * given assets with the genesis codec as the node does: one GenesisAsset (alias, then a CreateAssetTx without type
 * ID) per asset sorted by alias, one secp256k1fx initial state holding the fixed-cap holders' TransferOutputs and
 * the variable-cap minters' MintOutputs sorted by their bytes, `blockchainID` empty. Nothing here reads the world:
 * the node's answer depends on the params alone.
 */
import { decodeBytes } from '../shared/formatting.ts';
import { parseBech32 } from './bech32-go.ts';
import { type Params, encode, encodingOf } from './reads.ts';

/** linearcodec type IDs of secp256k1fx's outputs in the AVM's codec. */
const MINT_OUTPUT = 6;
const TRANSFER_OUTPUT = 7;

const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};
const str = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([u16(bytes.length), bytes]);
};

/** avajson.Uint64 / Uint8 as the decoder took them (quoted or bare); the schema has refused anything else. */
const uint = (value: unknown): bigint =>
  value === undefined || value === null || value === '' ? 0n : BigInt(String(value));

/** A verify.State in the codec: type ID, then secp256k1fx.TransferOutput or MintOutput (locktime 0, threshold 1). */
function output(typeID: number, addresses: Uint8Array[], amount?: bigint): Buffer {
  const sorted = [...addresses].sort(Buffer.compare);
  return Buffer.concat([
    u32(typeID),
    ...(amount === undefined ? [] : [u64(amount)]),
    u64(0n),
    u32(1),
    u32(sorted.length),
    ...sorted,
  ]);
}

function asset(networkID: number, alias: string, definition: Record<string, unknown>, encoding: string): Buffer {
  let memo: Uint8Array = new Uint8Array();
  const memoText = typeof definition.memo === 'string' ? definition.memo : '';
  if (memoText !== '') {
    try {
      memo = decodeBytes(memoText, encoding);
    } catch (error) {
      throw new Error(`problem formatting asset definition memo due to: ${(error as Error).message}`);
    }
  }
  const states = (definition.initialState ?? {}) as Record<string, unknown[]>;
  const outs: Buffer[] = [];
  for (const kind of Object.keys(states)) {
    for (const state of states[kind] ?? []) {
      const entry = (state ?? {}) as Record<string, unknown>;
      if (kind === 'fixedCap') {
        let address: Uint8Array;
        try {
          address = parseBech32(String(entry.address ?? ''));
        } catch (error) {
          throw new Error(`problem parsing holder address: ${(error as Error).message}`);
        }
        outs.push(output(TRANSFER_OUTPUT, [address], uint(entry.amount)));
      } else if (kind === 'variableCap') {
        const minters = (Array.isArray(entry.minters) ? entry.minters : []).map((m) => {
          try {
            return parseBech32(String(m));
          } catch (error) {
            throw new Error(`problem parsing minters address: ${(error as Error).message}`);
          }
        });
        outs.push(output(MINT_OUTPUT, minters));
      } else throw new Error('unknown asset type');
    }
  }
  // InitialState.Sort: outputs by their codec bytes; a definition without states has no initial state at all.
  outs.sort(Buffer.compare);
  const initialStates = Object.keys(states).length > 0 ? [Buffer.concat([u32(0), u32(outs.length), ...outs])] : [];
  return Buffer.concat([
    str(alias),
    u32(networkID),
    Buffer.alloc(32),
    u32(0),
    u32(0),
    u32(memo.length),
    memo,
    str(String(definition.name ?? '')),
    str(String(definition.symbol ?? '')),
    Buffer.from([Number(uint(definition.denomination) & 0xffn)]),
    u32(initialStates.length),
    ...initialStates,
  ]);
}

export function staticReads() {
  return {
    buildGenesis: (p: Params<'networkID' | 'genesisData' | 'encoding'>) => {
      const encoding = encodingOf(p);
      const networkID = Number(uint(p.networkID));
      const data = (p.genesisData ?? {}) as Record<string, Record<string, unknown>>;
      // Genesis.Txs sorted by alias (Go compares strings bytewise).
      const aliases = Object.keys(data).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
      const txs = aliases.map((alias) => asset(networkID, alias, data[alias] ?? {}, encoding));
      const bytes = Buffer.concat([u16(0), u32(txs.length), ...txs]);
      let text: string;
      try {
        text = encode(bytes, encoding);
      } catch (error) {
        throw new Error(`couldn't encode genesis as string: ${(error as Error).message}`);
      }
      return { bytes: text, encoding };
    },
  };
}
