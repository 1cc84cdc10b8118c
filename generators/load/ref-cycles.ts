/**
 * Components that are only other names for each other (`A: {$ref: B}`, `B: {$ref: A}`) refer to nothing: every reader
 * that follows them (ajv's compile, the model, a user's tool reading the published document) would loop. The bundler
 * keeps a named component's reference as written, so such a cycle is found here, on the bundled document.
 */
import { type BundledDocument, locate } from '../common/document.ts';
import { isObject } from '../common/json.ts';
import { type SpecProblem, localPointer, parsePointer, pointerOf, resolvePointer } from '../common/problems.ts';
import { COMPONENT_KINDS } from './roles.ts';

/** One problem per cycle of components whose `$ref`s lead back to themselves, at the `$ref` that closes it. */
export function refCycles(bundle: BundledDocument): SpecProblem[] {
  const document = bundle.document;
  const components = isObject(document.components) ? document.components : {};
  // Each pointer is followed once, however many chains pass through it: a hostile document cannot make this slow.
  const done = new Set<string>();
  const problems: SpecProblem[] = [];
  for (const kind of COMPONENT_KINDS) {
    const entries = components[kind];
    if (!isObject(entries)) continue;
    for (const name of Object.keys(entries)) {
      const chain: string[] = [];
      const onChain = new Set<string>();
      let pointer: string | undefined = pointerOf(['components', kind, name]);
      while (pointer !== undefined && !done.has(pointer) && !onChain.has(pointer)) {
        chain.push(pointer);
        onChain.add(pointer);
        pointer = nextOf(document, pointer);
      }
      if (pointer !== undefined && onChain.has(pointer)) {
        const cycle = chain.slice(chain.indexOf(pointer));
        const names = [...cycle, pointer].map((member) => parsePointer(member).slice(2).join('/'));
        problems.push({
          ...locate(bundle, `${cycle.at(-1)}/$ref`),
          message: `$ref cycle: ${names.join(' -> ')} only refer to each other, so they describe nothing`,
        });
      }
      for (const member of chain) done.add(member);
    }
  }
  return problems;
}

/** Where the object at `pointer` refers to, when it is a reference inside the document. */
function nextOf(document: unknown, pointer: string): string | undefined {
  const { value } = resolvePointer(document, pointer);
  return isObject(value) && typeof value.$ref === 'string' ? localPointer(value.$ref) : undefined;
}
