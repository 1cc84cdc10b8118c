/**
 * coreth's uncle reads (internal/ethapi BlockChainAPI, in the default `internal-blockchain` API): a C-Chain block has
 * no uncles, so a block's count is 0 and every uncle by index null; what differs is how each finds no block.
 */
import { engineBlockNumber, engineHash } from './block-hashes.ts';
import { ownBlock } from './block-reads.ts';
import { type CChain, EvmError } from './evm.ts';

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/** Whether the chain has the block: by number at most the last accepted one, by hash the canonical one at its height. */
async function hasBlock(chain: CChain, provider: Provider, byHash: boolean, at: unknown): Promise<boolean> {
  const [method, lookup] = byHash
    ? ['eth_getBlockByHash', typeof at === 'string' ? engineHash(chain, at) : at]
    : ['eth_getBlockByNumber', engineBlockNumber(at)];
  return (await ownBlock(chain, provider, method, lookup, false)) !== null;
}

/** GetUncleCountByBlock*: 0 for a block of this chain, null otherwise (BlockByNumber's error dropped). */
async function uncleCount(chain: CChain, byHash: boolean, params: unknown): Promise<string | null> {
  const [at] = Array.isArray(params) ? params : [];
  return chain.run(async (provider) => ((await hasBlock(chain, provider, byHash, at)) ? '0x0' : null));
}

/**
 * GetUncleByBlock*AndIndex: null, as no block has an uncle at any index; by number past the last accepted block,
 * BlockByNumber's ErrUnfinalizedData is the answer (eth/api_backend.go).
 */
async function uncleByIndex(chain: CChain, byHash: boolean, params: unknown): Promise<null> {
  const [at] = Array.isArray(params) ? params : [];
  if (byHash || typeof at !== 'string' || !at.startsWith('0x')) return null;
  return chain.run(async (provider) => {
    const latest = BigInt((await chain.call(provider, 'eth_blockNumber')) as string);
    if (BigInt(at) > latest) throw new EvmError(-32000, 'cannot query unfinalized data');
    return null;
  });
}

export function uncleMethods(chain: CChain): Record<string, (params: unknown) => Promise<unknown>> {
  return {
    eth_getUncleCountByBlockNumber: (params) => uncleCount(chain, false, params),
    eth_getUncleCountByBlockHash: (params) => uncleCount(chain, true, params),
    eth_getUncleByBlockNumberAndIndex: (params) => uncleByIndex(chain, false, params),
    eth_getUncleByBlockHashAndIndex: (params) => uncleByIndex(chain, true, params),
  };
}
