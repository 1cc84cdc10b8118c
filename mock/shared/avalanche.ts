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

/** Whether the codec has been loaded (by a first tx, or while the node idled: ../when-idle.ts). */
export const avalancheLoaded = (): boolean => loaded !== undefined;

export function avalanche(): Avalanche {
  if (!loaded) {
    loaded = createRequire(import.meta.url)('@avalabs/avalanchejs') as Avalanche;
    decodeProofsUnverified(loaded);
    registerPropertyFx(loaded);
  }
  return loaded;
}

/**
 * avalanchejs' readers take each field with `bytes.slice(n)`, a copy of everything after it: decoding n bytes copied
 * O(n²) of them (a 256 KiB transaction took seconds). Read through this view, whose slice is a subarray, the same
 * readers are linear. The view is of a private copy, so what the decoded fields share is never changed under them.
 */
class SharedSlices extends Uint8Array {
  override slice(start?: number, end?: number): Uint8Array<ArrayBuffer> {
    return this.subarray(start, end);
  }
}

export function forReading(bytes: Uint8Array, zerosAfter = 0): Uint8Array {
  const view = new SharedSlices(bytes.length + zerosAfter);
  view.set(bytes);
  return view;
}

/**
 * avalanchejs verifies a proof of possession when it decodes one; the node's codec does not (the executor does, with
 * its own text, after checks that come first). The mock decodes proofs as the node does and verifies them in
 * ./bls.ts. Patched when the codec loads, so that no module has to load it at import time to patch it.
 */
function decodeProofsUnverified(codec: Avalanche): void {
  const Proof = codec.pvmSerial.ProofOfPossession;
  Proof.fromBytes = (bytes: Uint8Array) => {
    const proof = Object.create(Proof.prototype) as InstanceType<typeof Proof>;
    Object.assign(proof, {
      publicKey: bytes.slice(0, 48),
      signature: bytes.slice(48, 144),
      _type: 'pvm.proofOfPossession',
    });
    return [proof, bytes.slice(144)];
  };
}
