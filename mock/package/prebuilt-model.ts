/**
 * The spec's model as the mock package's build stored it: none when the mock runs from source. The package's build
 * (./build.ts) swaps this module for one that reads `model.bin` beside the bundle (../model-cache.ts's file, written
 * by the build), so that a packaged mock does not build the model from the documents at start-up.
 */
import type { SpecModel } from '../../generators/model/types.ts';

export function prebuiltModel(): SpecModel | undefined {
  return undefined;
}
