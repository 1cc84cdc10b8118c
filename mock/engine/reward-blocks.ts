/**
 * The two blocks that end a staking period on the P-Chain (block/builder/builder.go buildBlock): once the chain time
 * reaches the end of the first staker of the current staker iterator, the builder issues a Banff proposal block
 * holding RewardValidatorTx{TxID} at that time, and the node accepts the option it prefers (block/executor/options.go:
 * commit when the staker's uptime suffices, abort otherwise). The reward transaction is Committed or Aborted with it.
 */
import { makeOptionBlock, makeProposalBlock, rewardValidatorTx } from '../world/codec.ts';
import type { Staker } from '../world/types.ts';
import type { World } from '../world/world.ts';

/**
 * Accepts the proposal block ending `staker` and its option, `apply` making the option's changes in between: the
 * proposal block changes nothing by itself (its state is its options'), so the validator sets at its height still
 * hold the staker.
 */
export function acceptRewardBlocks(world: World, staker: Staker, commit: boolean, apply: () => void): void {
  const now = world.time.get();
  const time = staker.endTime > now ? staker.endTime : now;
  world.time.set(time);
  const tx = rewardValidatorTx(staker.txID);
  world.txs.set(tx.id, { id: tx.id, chain: 'P', bytes: tx.bytes, status: 'Processing' });
  const proposal = makeProposalBlock(world.tip('P'), time, tx);
  world.acceptBlock(proposal);
  apply();
  if (!commit) world.txs.set(tx.id, { ...world.txs.get(tx.id)!, status: 'Aborted' });
  world.acceptBlock(makeOptionBlock(proposal, commit));
}
