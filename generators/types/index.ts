/**
 * TypeScript types for every schema of the spec, as the wire carries them: decimal strings stay `string`, params that
 * take a string or a number are `string | number`, lists the node may send as null are `T[] | null`. Names come from
 * the spec (component names, `<Service><Method>Params`/`Result`, titles of inline schemas), documentation from its
 * descriptions, `@deprecated` from its deprecation flags. Other generators (client, server) embed the result.
 */
import type { SpecModel } from '../model/types.ts';
import { compileAndPrintTypes } from './compile.ts';
import { namedTypes } from './schemas.ts';

export interface RenderedTypes {
  /** Printed declarations, no header: the embedding file adds its own. */
  source: string;
  /** Every exported type name, in declaration order. */
  names: string[];
}

// The client and the server embed the same types; the model is never mutated, so one rendering serves both.
const rendered = new WeakMap<SpecModel, Promise<RenderedTypes>>();

export function renderTypes(model: SpecModel): Promise<RenderedTypes> {
  let result = rendered.get(model);
  if (!result) {
    result = render(model);
    rendered.set(model, result);
  }
  return result;
}

async function render(model: SpecModel): Promise<RenderedTypes> {
  const types = namedTypes(model);
  const source = await compileAndPrintTypes(types, 'types.ts');
  return { source, names: types.map((t) => t.name) };
}
