/**
 * The development controls in process on a forked world: each loads what it names from the source first, exactly as
 * its `/ext/dev` handler does (the same `answerFor`), so an in-process edit, time move or dry run sees the same world
 * an HTTP one would. Loading is a request to the source, so each control answers a promise.
 */
import { endpointModel } from '../spec.ts';
import type { DevControls } from '../engine/dev.ts';
import type { ForkOrigin } from '../world/world.ts';

type Params = Record<string, unknown>;

/** DevControls whose every method answers a promise of what it answers on a local world. */
export type ForkedDevControls = {
  [K in keyof DevControls]: DevControls[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

export function forkedDev(dev: DevControls, fork: ForkOrigin): ForkedDevControls {
  const controls: Record<string, (p?: Params) => Promise<unknown>> = {};
  // The methods of /ext/dev, by the spec: the same set the HTTP handlers serve, never a helper of the class.
  for (const { name, shortName } of endpointModel('dev').methods) {
    const local = (dev as unknown as Record<string, (p: Params) => unknown>)[shortName];
    if (typeof local !== 'function') continue;
    const answer = fork.answerFor(name, (p) => local.call(dev, p));
    controls[shortName] = (p = {}) => answer(p);
  }
  return controls as unknown as ForkedDevControls;
}
