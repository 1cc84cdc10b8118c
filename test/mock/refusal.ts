/**
 * platform.issueTx's words for a tx its executor refuses: the node wraps the executor's text with the standard tx's
 * ID (avalanchego #3525). One pattern for every test, so a change in the node's wording is one edit.
 */
const HEAD = "couldn't issue tx: failed verification: failed execution: ";

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The whole message as a pattern. `inner` is the executor's text: a string is taken literally, a RegExp as a pattern
 * (for the parts a test cannot know, such as an amount). Without `txID` any tx ID is accepted.
 */
export function pRefusal(inner: string | RegExp, txID?: string): RegExp {
  const id = txID === undefined ? '\\w+' : escapeRe(txID);
  const rest = typeof inner === 'string' ? escapeRe(inner) : inner.source;
  return new RegExp(`^${escapeRe(HEAD)}standard tx ${id} failed execution: ${rest}$`);
}
