/**
 * platform.issueTx's words for a tx its executor refuses: the node wraps the executor's text with the standard tx's
 * ID (avalanchego #3525). One pattern for every test, so a change in the node's wording is one edit.
 */
const HEAD = "couldn't issue tx: failed verification: ";
const EXECUTION = 'failed execution: ';

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function executed(inner: string | RegExp, txID: string | undefined): string {
  const id = txID === undefined ? '\\w+' : escapeRe(txID);
  const rest = typeof inner === 'string' ? escapeRe(inner) : inner.source;
  return `${escapeRe(EXECUTION)}standard tx ${id} ${escapeRe(EXECUTION)}${rest}`;
}

/**
 * The whole message as a pattern. `inner` is the executor's text: a string is taken literally, a RegExp as a pattern
 * (for the parts a test cannot know, such as an amount). Without `txID` any tx ID is accepted.
 */
export function pRefusal(inner: string | RegExp, txID?: string): RegExp {
  return new RegExp(`^${escapeRe(HEAD)}${executed(inner, txID)}$`);
}

/**
 * The reason platform.getTxStatus gives for the same refusal (Dropped): the mempool keeps VerifyTx's error, without
 * the words the gossip mempool and service.go put before it; re-issued, the tx is refused with `couldn't issue tx: `
 * and this reason.
 */
export function pDropReason(inner: string | RegExp, txID?: string): RegExp {
  return new RegExp(`^${executed(inner, txID)}$`);
}
