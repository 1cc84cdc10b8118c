/** The generated clients a fork reads its source with, all on the fork URL and the fork's fetch (./fetch.ts). */
import { type FetchLike, InfoClient, PChainClient, XChainClient } from '../../generated/client/dist/index.js';

export interface Clients {
  info: InfoClient;
  p: PChainClient;
  x: XChainClient;
}

export function clientsOf(baseUrl: string, fetch: FetchLike): Clients {
  const options = { baseUrl, fetch, timeoutMs: 60_000 };
  return { info: new InfoClient(options), p: new PChainClient(options), x: new XChainClient(options) };
}
