/**
 * @avalabs/avalanchejs, required on first use rather than imported: a mock that never sees a transaction (most
 * start-ups, every read-only test) never loads the codec, which was a fifth of the packaged mock's start-up. The
 * mock's package build puts it in a file of its own beside the bundle (mock/package/build.ts). The engine passes it
 * bytes and strings only, so its copy of the classes never meets a caller's.
 */
import { createRequire } from 'node:module';
import { registerPropertyFx } from './propertyfx.ts';

type Avalanche = typeof import('@avalabs/avalanchejs');

let loaded: Avalanche | undefined;

export function avalanche(): Avalanche {
  if (!loaded) {
    loaded = createRequire(import.meta.url)('@avalabs/avalanchejs') as Avalanche;
    registerPropertyFx(loaded);
  }
  return loaded;
}
