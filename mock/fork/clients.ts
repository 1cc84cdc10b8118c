/** The generated clients a fork reads its source with, all on the fork URL and the fork's fetch (./fetch.ts). */
import {
  CAvaxClient,
  type FetchLike,
  InfoClient,
  PChainClient,
  XChainClient,
} from '../../generated/client/dist/index.js';

export interface Clients {
  info: InfoClient;
  p: PChainClient;
  x: XChainClient;
  /** The C-Chain's `avax` API: its shared memory. */
  cAvax: CAvaxClient;
}

export function clientsOf(baseUrl: string, fetch: FetchLike): Clients {
  const options = { baseUrl, fetch, timeoutMs: 60_000 };
  return {
    info: new InfoClient(options),
    p: new PChainClient(options),
    x: new XChainClient(options),
    cAvax: new CAvaxClient(options),
  };
}
