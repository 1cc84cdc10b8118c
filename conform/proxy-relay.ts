/**
 * What the proxy passes on and what it keeps: each hop's own headers dropped (the rest pass unchanged), and a copy of
 * a body, within a limit, for checking after the exchange.
 */

/** Headers that describe one connection, not the message (RFC 9110 §7.6.1); each hop sets its own. */
const HOP_BY_HOP = new Set(
  [
    'connection keep-alive proxy-connection transfer-encoding te trailer',
    'upgrade proxy-authorization proxy-authenticate',
  ].flatMap((line) => line.split(' ')),
);

/**
 * Headers the node's answer turns on (its host allowlist, its 415): a Connection header naming them must not take them
 * off the request, or the proxy would change the answer it claims to pass through (Go's server, the node, ignores such
 * a token).
 */
const KEPT = new Set(['host', 'content-type']);

/**
 * A message's headers (raw name/value pairs) without the hop-by-hop ones; `replaceHost`, the Host to send;
 * `defaultHost`, the one to send when the message has none (an HTTP/1.0 caller may send none, and the node serves it,
 * but the proxy speaks HTTP/1.1 upstream, where the node refuses a request without one).
 */
export function endToEnd(raw: string[], replaceHost?: string, defaultHost?: string): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection')
      for (const token of raw[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  let host = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || (named.has(name) && !KEPT.has(name))) continue;
    if (name === 'host') host = true;
    out.push(raw[i]!, replaceHost !== undefined && name === 'host' ? replaceHost : raw[i + 1]!);
  }
  const missing = replaceHost ?? defaultHost;
  if (!host && missing !== undefined) out.push('Host', missing);
  return out;
}

/** Bodies larger than this are forwarded but not validated. */
export const INSPECT_LIMIT = 32 * 1024 * 1024;

/**
 * Keeps a copy of a stream's bytes up to INSPECT_LIMIT, for validation after the fact, and decodes it once at the end.
 * Decoding each chunk as it passed (no copy of the whole body) was measured too (bench/proxy.bench.ts, 60 answers of
 * 6 MB): the same memory 30 s after, but a peak of 290 MB instead of 230, as every part went through the young
 * generation while its answer was under way.
 */
export class Tap {
  private chunks: Buffer[] = [];
  private size = 0;
  overflow = false;
  push = (chunk: Buffer) => {
    if (this.overflow) return;
    this.size += chunk.length;
    if (this.size > INSPECT_LIMIT) {
      this.overflow = true;
      this.chunks = [];
    } else this.chunks.push(chunk);
  };
  /** The text, once: the copy is let go of as soon as it is taken. */
  text = () => {
    const all = Buffer.concat(this.chunks).toString('utf8');
    this.chunks = [];
    return all;
  };
}
