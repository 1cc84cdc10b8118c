/**
 * The X-Chain's genesis block in its JSON form, as a node that made its genesis answers it: the block object it built
 * stays in its block cache, with the nil transaction list it was built with.
 */
import { describe, expect, it } from 'vitest';
import { TX_TYPES } from '../../mock/engine/handlers.ts';
import { buildWorld } from '../../mock/world/genesis.ts';
import { xChainReads } from '../../mock/world/reads-x.ts';

describe('X-Chain genesis block JSON', () => {
  // vms/avm/state/state.go:350 initializeChainState builds the genesis with block.NewStandardBlock(..., nil, ...) and
  // :485 writeBlocks keeps that object in blockCache, which :318 GetBlock answers before parsing any bytes: its
  // Transactions stay nil, `"txs":null` (vms/avm/block/standard_block.go json:"txs"). Later blocks hold their txs.
  it('writes txs as null, as the node that built it keeps it; other blocks keep their lists', () => {
    const world = buildWorld({ network: 'local', accounts: 1 });
    const reads = xChainReads(world, TX_TYPES);
    const genesis = (reads.getBlockByHeight({ height: 0, encoding: 'json' }) as { json: string }).json;
    expect(genesis).toMatch(
      /^\{"block":\{"parentID":"11111111111111111111111111111111LpoYY","height":0,"time":\d+,"merkleRoot":"11111111111111111111111111111111LpoYY","txs":null,"id":"\w+"\},"encoding":"json"\}$/,
    );
    const id = JSON.parse(genesis).block.id;
    expect((reads.getBlock({ blockID: id, encoding: 'json' }) as { json: string }).json).toBe(genesis);
    const next = (reads.getBlockByHeight({ height: 1, encoding: 'json' }) as { json: string }).json;
    expect(JSON.parse(next).block.txs).toBeInstanceOf(Array);
  });
});
