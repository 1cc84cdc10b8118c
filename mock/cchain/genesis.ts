/**
 * The C-Chain's genesis as AvalancheGo's genesis files give it (genesis/genesis_<network>.json `cChainGenesis`, held
 * verbatim in ../world/genesis-chains.ts): the chain ID, the allocations (the ewoq key's 50,000,000 AVAX on `local`;
 * the native-asset call contract at 0x0100… on Fuji and Mainnet), the genesis gas limit and timestamp; plus the mock's
 * funded accounts, which hold on C what they hold on X and P.
 */
import { fundedAccount } from '../engine/dev.ts';
import { ACCOUNT_FUNDS } from '../world/genesis.ts';
import { C_CHAIN_GENESIS } from '../world/genesis-chains.ts';
import type { NetworkName } from '../world/networks.ts';
import type { World } from '../world/world.ts';

/** nAVAX to wei (coreth's X2CRate). */
export const X2C_RATE = 1_000_000_000n;

interface Allocation {
  address: string;
  balance: bigint;
  code?: string;
}

interface GenesisFile {
  config: { chainId: number };
  timestamp: string;
  gasLimit: string;
  alloc: Record<string, { balance: string; code?: string }>;
}

/** The network's genesis file, `local`'s for a network the mock has none of. */
const genesisFile = (world: World): GenesisFile =>
  JSON.parse(C_CHAIN_GENESIS[world.network.name as NetworkName] ?? C_CHAIN_GENESIS.local) as GenesisFile;

/** The C-Chain's EVM chain ID on the world's network. */
export const cChainIDOf = (world: World): bigint => BigInt(genesisFile(world).config.chainId);

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

export function cGenesis(world: World): CGenesis {
  const file = genesisFile(world);
  const alloc: Allocation[] = Object.entries(file.alloc).map(([address, { balance, code }]) => ({
    address: address.toLowerCase(),
    balance: BigInt(balance),
    ...(code ? { code } : {}),
  }));
  for (const account of world.accounts)
    alloc.push({
      address: fundedAccount(world, account.privateKey).cAddress.slice(2).toLowerCase(),
      balance: ACCOUNT_FUNDS * X2C_RATE,
    });
  const timestamp = BigInt(file.timestamp);
  return {
    chainID: BigInt(file.config.chainId),
    alloc,
    gasLimit: BigInt(file.gasLimit),
    timestamp: timestamp > 0n ? timestamp : undefined,
  };
}
