/**
 * The loader: the only code that reads hand-written spec files. It bundles each endpoint document, checks it as
 * written and as bundled against the OpenRPC meta-schema, applies the standard checks and the rules of the profile
 * its folder opts into, and throws one SpecError
 * listing every problem (file + JSON pointer) or returns the bundles.
 */
import { bundleDocument } from './bundle.ts';
import { type BundledDocument, locate } from '../common/document.ts';
import { checkDocument, checkMethod } from './meta-schema.ts';
import { displayPath, readJsonFile } from './read.ts';
import { checkRules } from './rules.ts';
import { SpecError, type SpecProblem } from '../common/problems.ts';
import { profileOf } from './profile.ts';

export type { BundledDocument } from '../common/document.ts';
export { SpecError, type SpecProblem } from '../common/problems.ts';
export { CONFIG_FILE, type Profile } from './profile.ts';

export function loadSpec(files: string[]): BundledDocument[] {
  const problems: SpecProblem[] = [];
  const bundles: BundledDocument[] = [];
  for (const file of files) {
    try {
      const profile = profileOf(file);
      bundles.push({ ...bundleDocument(file), ...(profile ? { profile } : {}) });
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      problems.push(...error.problems);
    }
  }
  for (const bundle of bundles) problems.push(...checkBundle(bundle));

  const owners = new Map<string, string>();
  for (const bundle of bundles) {
    const methods = bundle.document.methods as Array<{ name?: unknown }>;
    methods.forEach((method, i) => {
      const name = String(method.name);
      const owner = owners.get(name);
      if (owner)
        problems.push({
          ...locate(bundle, `/methods/${i}/name`),
          message: `method "${name}" is already defined in ${owner}`,
        });
      else owners.set(name, `${bundle.file} (${locate(bundle, `/methods/${i}`).file})`);
    });
  }
  const names = new Map<string, string>();
  for (const bundle of bundles) {
    const other = names.get(bundle.name);
    if (other)
      problems.push({
        file: bundle.file,
        pointer: '',
        message: `endpoint name "${bundle.name}" is also the name of ${other}`,
      });
    names.set(bundle.name, bundle.file);
  }
  if (problems.length > 0) throw new SpecError(unique(problems));
  return bundles;
}

/** A file several documents share (a broken components file) is reported once, not once per document. */
function unique(problems: SpecProblem[]): SpecProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}#${p.pointer}\u0000${p.message}`;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

function checkBundle(bundle: BundledDocument): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const written = readJsonFile(bundle.file) as { methods?: unknown };
  for (const p of checkDocument(written)) problems.push({ file: bundle.file, pointer: p.pointer, message: p.message });
  const methodFiles = new Set(bundle.sources.filter((s) => s.pointer === '' && s.bundled.startsWith('/methods/')));
  for (const source of methodFiles) {
    for (const p of checkMethod(readJsonFile(source.file)))
      problems.push({ file: source.file, pointer: p.pointer, message: p.message });
  }
  if (problems.length > 0) return problems;
  for (const p of checkDocument(bundle.document))
    problems.push({ ...locate(bundle, p.pointer), message: `${p.message} (bundled)` });
  if (problems.length > 0) return problems;
  return checkRules(bundle, bundle.profile);
}

export { displayPath };
