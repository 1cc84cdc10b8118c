/** A bundled endpoint document, as the loader hands it to the model, and where each of its parts was written. */
import type { SpecProblem } from './problems.ts';

/** The rule sets a document's folder may opt into (load/profile.ts). */
export const PROFILES = ['avalanche'] as const;
export type Profile = (typeof PROFILES)[number];

export interface SourceMapping {
  /** Pointer into the bundled document. */
  bundled: string;
  file: string;
  /** Pointer into `file` that `bundled` came from. */
  pointer: string;
}

export interface BundledDocument {
  /** Endpoint name: the document's file name without `.json`. */
  name: string;
  file: string;
  document: Record<string, unknown>;
  sources: SourceMapping[];
  /** The rule set the document's folder opts into (profile.ts); undefined for plain OpenRPC. */
  profile?: Profile;
  /** Examples of a foreign document that do not validate, left out of `document` (load/rules.ts). */
  advice?: ExampleAdvice[];
}

/** An example of a foreign document that does not validate: a warning, not a stop (outside the avalanche profile). */
export interface ExampleAdvice extends SpecProblem {
  method: string;
  /** Where the example sits in the bundled document. */
  methodIndex: number;
  exampleIndex: number;
}

const locators = new WeakMap<BundledDocument, Map<string, SourceMapping>>();

/** The hand-written file and pointer that a pointer into the bundled document came from. */
export function locate(bundle: BundledDocument, bundledPointer: string): { file: string; pointer: string } {
  let index = locators.get(bundle);
  if (!index) {
    index = new Map(bundle.sources.map((mapping) => [mapping.bundled, mapping]));
    locators.set(bundle, index);
  }
  // The longest mapped prefix wins; walking up the pointer's tokens keeps this linear in its depth.
  let prefix = bundledPointer;
  for (;;) {
    const mapping = index.get(prefix);
    if (mapping) return { file: mapping.file, pointer: mapping.pointer + bundledPointer.slice(prefix.length) };
    if (prefix === '') return { file: bundle.file, pointer: bundledPointer };
    prefix = prefix.slice(0, prefix.lastIndexOf('/'));
  }
}
