/**
 * The C-Chain's blocks as `/ext/bc/C/rpc` reads them: by number or by coreth's hash, whole, as headers, or as their
 * receipts, from the engine's blocks with what coreth adds (./coreth-block.ts) and coreth's hashes
 * (./block-hashes.ts).
 */
import { corethHashes, engineBlockNumber, engineHash } from './block-hashes.ts';
import type { RpcBlock } from './blocks.ts';
import { BODY_FIELDS, corethBlock, corethBlockBytes, corethHeaderJson } from './coreth-block.ts';
import type { CChain } from './evm.ts';
import { corethReceipt } from './receipts.ts';
import type { Fork } from '../fork/lazy.ts';

const quantity = (n: bigint) => `0x${n.toString(16)}`;

type Provider = Parameters<Parameters<CChain['run']>[0]>[0];

/**
 * The engine's block `method` finds, when it is one of this chain's. coreth's BlockByHash and HeaderByHash (eth/
 * api_backend.go) answer nil for a hash that is not the canonical one at its height, whatever the caller's EIP-1898
 * `requireCanonical` says (coreth never reads that flag; geth errs "hash is not currently canonical" only when it is
 * set, and eth_getBlockReceipts turns that into null too). The engine's chain has no side blocks, but a fork's
 * engine finds the source's blocks above the fork point by hash, which are not this chain's.
 */
export async function ownBlock<Block extends Pick<RpcBlock, 'hash' | 'number'>>(
  chain: CChain,
  provider: Provider,
  method: string,
  at: unknown,
  fullTx: boolean,
): Promise<Block | null> {
  const block = (await chain.call(provider, method, [at, fullTx])) as Block | null;
  if (!block || method !== 'eth_getBlockByHash') return block;
  const canonical = (await chain.call(provider, 'eth_getBlockByNumber', [block.number, false])) as RpcBlock | null;
  return canonical?.hash === block.hash ? block : null;
}

/**
 * eth_getBlockByNumber/Hash and eth_getHeaderByNumber/Hash: the engine's block, read with its transactions (the
 * coreth block's size needs them), answered as coreth's BlockChainAPI marshals it; null when the chain has none.
 */
export async function readBlock(chain: CChain, method: string, params: unknown): Promise<unknown> {
  const [, fullTx] = Array.isArray(params) ? params : [];
  const answer = await readOwnBlock(chain, method, params);
  if (!(answer instanceof SourceBlock)) return answer;
  // A block of a fork source's history (the fork block and below) is the source's, as it answers it, coreth's fields
  // and hashes included (EDR keeps neither).
  const byNumber = method.replace('ByHash', 'ByNumber');
  const reply = await (chain.world.fork as Fork).source.cCall(
    byNumber,
    byNumber.startsWith('eth_getHeader') ? [answer.number] : [answer.number, fullTx === true],
  );
  const block = 'result' in reply ? (reply.result as { number?: unknown } | null) : undefined;
  // Checked where read: only the block asked for is answered as the source's.
  if (typeof block !== 'object' || block === null || block.number !== answer.number)
    throw new Error(`the fork source answered ${byNumber} ${answer.number} with no such block`);
  return block;
}

/** The number of a block of a fork source's history, which the source answers. */
class SourceBlock {
  readonly number: string;
  constructor(number: string) {
    this.number = number;
  }
}

function readOwnBlock(chain: CChain, method: string, params: unknown): Promise<unknown> {
  const [at, fullTx] = Array.isArray(params) ? params : [];
  const headerOnly = method.startsWith('eth_getHeader');
  const engineMethod = method.replace('eth_getHeader', 'eth_getBlock');
  return chain.run(async (provider) => {
    const byHash = engineMethod === 'eth_getBlockByHash';
    const lookup = byHash ? (typeof at === 'string' ? engineHash(chain, at) : at) : engineBlockNumber(at);
    const block = await ownBlock<RpcBlock>(chain, provider, engineMethod, lookup, true);
    if (!block) return null;
    const extra = chain.corethExtra(Number(block.number));
    let answer: Record<string, unknown>;
    if (chain.world.fork && (!extra || extra.fromSource)) return new SourceBlock(block.number);
    if (!extra) answer = { ...block };
    else if (headerOnly) answer = corethHeaderJson(chain.world, block, extra, chain.release);
    else
      answer = corethBlock(
        chain.world,
        { ...block },
        extra,
        corethBlockBytes(chain, block, extra).length,
        chain.release,
      );
    if (headerOnly) {
      for (const body of BODY_FIELDS) delete answer[body];
      answer.totalDifficulty = quantity(BigInt(block.number));
    } else if (fullTx !== true) answer.transactions = block.transactions.map((tx) => tx.hash);
    return corethHashes(chain, answer);
  });
}

/**
 * rpc.BlockNumberOrHash (graft/evm/rpc/types.go) as the engine looks it up: a hash (an object's `blockHash`, keys
 * matched as Go matches them, or a 66-character string) or a number; coreth reads every tag but `earliest` as latest.
 * Undefined for an object naming neither: BlockByNumberOrHash's "neither block nor hash specified". The params
 * check (./params.ts) has refused what the type does not decode: both named, a `requireCanonical` not a boolean.
 */
export function engineLookup(chain: CChain, at: unknown): [method: string, param: unknown] | undefined {
  const fields =
    typeof at === 'object' && at !== null
      ? new Map(Object.entries(at).map(([k, v]) => [k.toLowerCase(), v]))
      : undefined;
  const hash = fields ? fields.get('blockhash') : typeof at === 'string' && at.length === 66 ? at : undefined;
  if (typeof hash === 'string') return ['eth_getBlockByHash', engineHash(chain, hash)];
  const number = fields ? fields.get('blocknumber') : at;
  if (number === undefined || number === null) return undefined;
  return ['eth_getBlockByNumber', engineBlockNumber(number)];
}

/**
 * eth_getBlockReceipts (internal/ethapi BlockChainAPI.GetBlockReceipts): the receipts of the block's transactions in
 * their order, each as eth_getTransactionReceipt answers it; null where BlockByNumberOrHash finds no block of this
 * chain or errs (GetBlockReceipts answers null for either).
 */
export function readBlockReceipts(chain: CChain, params: unknown): Promise<unknown> {
  const [at] = Array.isArray(params) ? params : [];
  return chain.run(async (provider) => {
    const lookup = engineLookup(chain, at);
    if (!lookup) return null;
    const [method, param] = lookup;
    const block = await ownBlock<Pick<RpcBlock, 'hash' | 'number'> & { transactions: string[] }>(
      chain,
      provider,
      method,
      param,
      false,
    );
    if (!block) return null;
    const receipts: unknown[] = [];
    for (const hash of block.transactions)
      receipts.push(
        await corethReceipt(chain, provider, await chain.call(provider, 'eth_getTransactionReceipt', [hash])),
      );
    return corethHashes(chain, receipts);
  });
}
