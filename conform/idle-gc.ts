/**
 * Gives memory back once a server goes quiet. Under load V8 grows its heap (the young generation up to its maximum,
 * old-generation pages for what got promoted); it shrinks it again only in a garbage collection, and an idle server
 * allocates nothing, so no collection comes: browsers run one in idle time, Node has no idle-time GC. Measured on the
 * mock after the soak (bench/soak.bench.ts): 24 MB of heap in use but 58 MB of heap and 153 MB RSS, against 114 MB
 * at the start; one full collection brought the heap to 21 MB and RSS to 116 MB. So after traffic stops, one full
 * collection runs. Only the CLIs (the mock, the proxy) turn this on: collecting is a choice for a whole process.
 */
import type { Server } from 'node:http';
import { fullCollection } from '../generators/full-collection.ts';

/**
 * Full collection after each burst of requests to `server`, once no request has arrived for `quietMs` (default 5 s,
 * checked on a timer that keeps no process alive), then `collected` if given (with what the process holds after it).
 * Returns a function that stops it.
 */
export function collectWhenIdle(
  server: Server,
  quietMs = 5000,
  collected?: (usage: NodeJS.MemoryUsage) => void,
): () => void {
  let requests = 0;
  let seen = 0;
  let collectedAt = 0;
  const count = () => void requests++;
  server.on('request', count);
  const timer = setInterval(() => {
    if (requests !== seen) {
      seen = requests;
      return;
    }
    if (requests === collectedAt) return;
    collectedAt = requests;
    // V8 shrinks its young generation only in a collection that finds the allocation rate low: the first finds the
    // rate of the burst's last moments, the second (nothing allocated in between) finds it low and gives the pages back.
    fullCollection();
    fullCollection();
    collected?.(process.memoryUsage());
  }, quietMs).unref();
  return () => {
    clearInterval(timer);
    server.off('request', count);
  };
}
