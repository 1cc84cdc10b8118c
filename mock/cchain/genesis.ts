/**
 * The C-Chain's genesis as AvalancheGo's genesis files give it (genesis/genesis_<network>.json `cChainGenesis`): the
 * chain ID, the allocations (the ewoq key's 50,000,000 AVAX on `local`; the native-asset call contract at 0x0100… on
 * Fuji and Mainnet), the genesis gas limit and timestamp; plus the mock's funded accounts, which hold on C what they
 * hold on X and P.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { uncompressedPublicKey } from '../world/signers.ts';
import { cb58Decode } from '../../generators/formats.ts';
import { ACCOUNT_FUNDS } from '../world/genesis.ts';
import type { World } from '../world/world.ts';

/** nAVAX to wei (coreth's X2CRate). */
export const X2C_RATE = 1_000_000_000n;

interface Allocation {
  address: string;
  balance: bigint;
  code?: string;
}

const NATIVE_ASSET_CALL =
  '0x7300000000000000000000000000000000000000003014608060405260043610603d5760003560e01c80631e010439146042578063b6510bb314606e575b600080fd5b605c60048036036020811015605657600080fd5b503560b1565b60408051918252519081900360200190f35b818015607957600080fd5b5060af60048036036080811015608e57600080fd5b506001600160a01b03813516906020810135906040810135906060013560b6565b005b30cd90565b836001600160a01b031681836108fc8690811502906040516000604051808303818888878c8acf9550505050505015801560f4573d6000803e3d6000fd5b505050505056fea26469706673582212201eebce970fe3f5cb96bf8ac6ba5f5c133fc2908ae3dcd51082cfee8f583429d064736f6c634300060a0033';

const CHAIN_IDS: Record<string, bigint> = { local: 43112n, fuji: 43113n, mainnet: 43114n };

/** The C-Chain's EVM chain ID on the world's network. */
export const cChainIDOf = (world: World): bigint => CHAIN_IDS[world.network.name] ?? 43112n;

export interface CGenesis {
  chainID: bigint;
  alloc: Allocation[];
  /** The genesis block's gas limit (0x5f5e100 in all three files). */
  gasLimit: bigint;
  /**
   * The genesis file's time where the engine can build the genesis then: local's, 0x5FCB13D0, when every upgrade is
   * active; not Fuji's or Mainnet's, 0, before every upgrade (no base fee, no Cancun fields).
   */
  timestamp: bigint | undefined;
}

/** Keys' EVM addresses, process-wide: every node of a test suite funds the same seed's accounts. */
const ethAddresses = new Map<string, string>();

/** The EVM address (40-hex, lower case) of a `PrivateKey-…` key: keccak-256 of the public key's X and Y, last 20. */
function ethAddressOf(privateKey: string): string {
  let address = ethAddresses.get(privateKey);
  if (address === undefined) {
    const publicKey = uncompressedPublicKey(cb58Decode(privateKey.slice('PrivateKey-'.length))!);
    address = Buffer.from(keccak_256(publicKey.subarray(1)).subarray(12)).toString('hex');
    if (ethAddresses.size >= 100_000) ethAddresses.clear();
    ethAddresses.set(privateKey, address);
  }
  return address;
}

export function cGenesis(world: World): CGenesis {
  const name = world.network.name;
  const alloc: Allocation[] =
    name === 'local'
      ? [{ address: '8db97c7cece249c2b98bdc0226cc4c2a57bf52fc', balance: 0x295be96e64066972000000n }]
      : [{ address: '0100000000000000000000000000000000000000', balance: 0n, code: NATIVE_ASSET_CALL }];
  for (const account of world.accounts)
    alloc.push({ address: ethAddressOf(account.privateKey), balance: ACCOUNT_FUNDS * X2C_RATE });
  return {
    chainID: cChainIDOf(world),
    alloc,
    gasLimit: 0x5f5e100n,
    timestamp: name === 'local' ? 0x5fcb13d0n : undefined,
  };
}
