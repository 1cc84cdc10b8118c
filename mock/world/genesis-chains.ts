/**
 * The chains the P-Chain's genesis creates (genesis/genesis.go FromConfig, vms/platformvm/genesis/genesis.go New):
 * the X-Chain, its genesis data the avm genesis holding the AVAX asset, and the C-Chain, its genesis data the genesis
 * file's `cChainGenesis` (genesis/genesis_{local,fuji,mainnet}.json of v1.14.2), kept here verbatim, whitespace and
 * key order included, since one byte more or less changes the C-Chain's ID, which is its CreateChainTx's hash.
 */
import { avmGenesisBytes, genesisChainTx } from './genesis-txs.ts';
import { EMPTY_ID, FX_IDS, type NetworkIdentity, type NetworkName, VM_IDS } from './networks.ts';
import type { World } from './world.ts';

export const C_CHAIN_GENESIS: Record<NetworkName, string> = {
  local:
    '{"config":{"chainId":43112,"homesteadBlock":0,"daoForkBlock":0,"daoForkSupport":true,"eip150Block":0,"eip150Hash":"0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0","eip155Block":0,"eip158Block":0,"byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"muirGlacierBlock":0,"apricotPhase1BlockTimestamp":0,"apricotPhase2BlockTimestamp":0},"nonce":"0x0","timestamp":"0x5FCB13D0","extraData":"0x00","gasLimit":"0x5f5e100","difficulty":"0x0","mixHash":"0x0000000000000000000000000000000000000000000000000000000000000000","coinbase":"0x0000000000000000000000000000000000000000","alloc":{"8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC":{"balance":"0x295BE96E64066972000000"}},"number":"0x0","gasUsed":"0x0","parentHash":"0x0000000000000000000000000000000000000000000000000000000000000000"}',
  fuji: '{"config":{"chainId":43113,"homesteadBlock":0,"daoForkBlock":0,"daoForkSupport":true,"eip150Block":0,"eip150Hash":"0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0","eip155Block":0,"eip158Block":0,"byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"muirGlacierBlock":0},"nonce":"0x0","timestamp":"0x0","extraData":"0x00","gasLimit":"0x5f5e100","difficulty":"0x0","mixHash":"0x0000000000000000000000000000000000000000000000000000000000000000","coinbase":"0x0000000000000000000000000000000000000000","alloc":{"0100000000000000000000000000000000000000":{"code":"0x7300000000000000000000000000000000000000003014608060405260043610603d5760003560e01c80631e010439146042578063b6510bb314606e575b600080fd5b605c60048036036020811015605657600080fd5b503560b1565b60408051918252519081900360200190f35b818015607957600080fd5b5060af60048036036080811015608e57600080fd5b506001600160a01b03813516906020810135906040810135906060013560b6565b005b30cd90565b836001600160a01b031681836108fc8690811502906040516000604051808303818888878c8acf9550505050505015801560f4573d6000803e3d6000fd5b505050505056fea26469706673582212201eebce970fe3f5cb96bf8ac6ba5f5c133fc2908ae3dcd51082cfee8f583429d064736f6c634300060a0033","balance":"0x0"}},"number":"0x0","gasUsed":"0x0","parentHash":"0x0000000000000000000000000000000000000000000000000000000000000000"}',
  mainnet:
    '{"config":{"chainId":43114,"homesteadBlock":0,"daoForkBlock":0,"daoForkSupport":true,"eip150Block":0,"eip150Hash":"0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0","eip155Block":0,"eip158Block":0,"byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"muirGlacierBlock":0},"nonce":"0x0","timestamp":"0x0","extraData":"0x00","gasLimit":"0x5f5e100","difficulty":"0x0","mixHash":"0x0000000000000000000000000000000000000000000000000000000000000000","coinbase":"0x0000000000000000000000000000000000000000","alloc":{"0100000000000000000000000000000000000000":{"code":"0x7300000000000000000000000000000000000000003014608060405260043610603d5760003560e01c80631e010439146042578063b6510bb314606e575b600080fd5b605c60048036036020811015605657600080fd5b503560b1565b60408051918252519081900360200190f35b818015607957600080fd5b5060af60048036036080811015608e57600080fd5b506001600160a01b03813516906020810135906040810135906060013560b6565b005b30cd90565b836001600160a01b031681836108fc8690811502906040516000604051808303818888878c8acf9550505050505015801560f4573d6000803e3d6000fd5b505050505056fea26469706673582212201eebce970fe3f5cb96bf8ac6ba5f5c133fc2908ae3dcd51082cfee8f583429d064736f6c634300060a0033","balance":"0x0"}},"number":"0x0","gasUsed":"0x0","parentHash":"0x0000000000000000000000000000000000000000000000000000000000000000"}',
};

/**
 * The X- and C-Chain as the P-Chain's genesis creates them (state.go syncGenesis: AddChain, AddTx Committed): each a
 * CreateChainTx whose ID is the chain's ID, the X-Chain's genesis data the avm genesis holding the AVAX asset, the
 * C-Chain's the genesis file's JSON.
 */
export function addGenesisChains(world: World, identity: NetworkIdentity, avaxAssetTx: Uint8Array): void {
  const chains = [
    {
      id: identity.xChainID,
      name: 'X-Chain',
      vmID: VM_IDS.avm,
      fxIDs: FX_IDS,
      genesisData: avmGenesisBytes(avaxAssetTx),
    },
    {
      id: identity.cChainID,
      name: 'C-Chain',
      vmID: VM_IDS.evm,
      fxIDs: [],
      genesisData: Buffer.from(C_CHAIN_GENESIS[identity.name], 'utf8'),
    },
  ];
  for (const chain of chains) {
    const tx = genesisChainTx(identity.networkID, EMPTY_ID, chain);
    if (tx.id !== chain.id)
      throw new Error(`the ${identity.name} ${chain.name}'s genesis CreateChainTx hashes to ${tx.id}, not ${chain.id}`);
    world.chains.set(chain.id, { id: chain.id, name: chain.name, subnetID: EMPTY_ID, vmID: chain.vmID });
    world.txs.set(tx.id, { id: tx.id, chain: 'P', bytes: tx.bytes, status: 'Committed' });
  }
}
