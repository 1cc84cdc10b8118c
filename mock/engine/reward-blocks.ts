/**
 * The two blocks that end a staking period on the P-Chain (block/builder/builder.go buildBlock): once the chain time
 * reaches the end of the first staker of the current staker iterator, the builder issues a Banff proposal block
 * holding RewardValidatorTx{TxID} at that time, and the node accepts the option it prefers (block/executor/options.go:
 * commit when the staker's uptime suffices, abort otherwise). The reward transaction is Committed or Aborted with it.
 * The builder packs the mempool's transactions into the proposal block as into any block (./engine.ts packProposal).
 */
import { makeOptionBlock, makeProposalBlock, rewardValidatorTx } from '../world/codec.ts';
import type { Staker } from '../world/types.ts';
import type { World } from '../world/world.ts';

/** The decision transactions packed into a proposal block, executed already. */
export type PackProposal = () => ReadonlyArray<{ id: string; bytes: Uint8Array }>;

/**
 * Accepts the proposal block ending `staker`, with the decision transactions `pack` executes at its time, and its
 * option, `apply` making the option's changes in between: the proposal block's state is written with its option
 * (block/executor/acceptor.go), so the validator sets at its height still hold the staker.
 */
export function acceptRewardBlocks(
  world: World,
  staker: Staker,
  commit: boolean,
  apply: () => void,
  pack: PackProposal,
): void {
  const now = world.time.get();
  const time = staker.endTime > now ? staker.endTime : now;
  world.time.set(time);
  // Executed before the reward transaction, on the state where the staker is still current (verifier.go
  // BanffProposalBlock: the decision state, then the proposal transaction on its commit and abort states).
  const decisions = pack();
  const tx = rewardValidatorTx(staker.txID);
  world.txs.set(tx.id, { id: tx.id, chain: 'P', bytes: tx.bytes, status: 'Processing' });
  const proposal = makeProposalBlock(world.tip('P'), time, tx, decisions);
  world.acceptBlock(proposal);
  apply();
  if (!commit) world.txs.set(tx.id, { ...world.txs.get(tx.id)!, status: 'Aborted' });
  world.acceptBlock(makeOptionBlock(proposal, commit));
}
