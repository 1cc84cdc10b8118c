/**
 * V8's full garbage collection, for the few places that know a large working set just became garbage (the end of a
 * generator's run on a large document, an idle server): V8 shrinks its heap only in a collection, and the large
 * strings and arrays of a finished step stay mapped until one runs.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** `gc` exists only with --expose-gc, which a context made after setting the flag gets (made once, on first use). */
export function fullCollection(): void {
  if (!collect) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === 'function') collect = exposed;
    else {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    }
  }
  collect();
}

/** Resident memory past which a step that has just dropped a large working set collects it (collectIfLarge). */
const LARGE_BYTES = 384 * 1024 * 1024;

/**
 * A full collection, only when the process holds over 384 MB: a large document's step has left hundreds of MB of
 * garbage that V8 would carry into the next step's work; a spec of ordinary size never gets near this, and pays
 * nothing.
 */
export function collectIfLarge(): void {
  if (process.memoryUsage.rss() > LARGE_BYTES) fullCollection();
}
