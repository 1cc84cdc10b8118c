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
