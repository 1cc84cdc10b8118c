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
import { type ExampleAdvice, checkRules } from './rules.ts';
import { SpecError, type SpecProblem } from '../common/problems.ts';
import { profileOf } from './profile.ts';
import { refCycles } from './ref-cycles.ts';
import { expansionProblems } from './expansion.ts';

export { SpecError, type SpecProblem } from '../common/problems.ts';

export function loadSpec(files: string[]): BundledDocument[] {
  const problems: SpecProblem[] = [];
  const bundles: BundledDocument[] = [];
  for (const file of files) {
    problems.push(
      ...guarded(file, () => {
        const profile = profileOf(file);
        bundles.push({ ...bundleDocument(file), ...(profile ? { profile } : {}) });
        return [];
      }),
    );
  }
  for (const bundle of bundles) {
    const advice: ExampleAdvice[] = [];
    problems.push(...guarded(bundle.file, () => checkBundle(bundle, advice)));
    if (advice.length > 0) withoutExamples(bundle, advice);
  }

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
  // An endpoint's name is its generated files' names (`client/src/<name>.ts`, `docs/<name>.html`) and a module path
  // inside string literals: two names one in another case would be one file on a case-insensitive file system (macOS,
  // Windows), and a quote, brace or slash in one would be code or a folder.
  const names = new Map<string, { name: string; file: string }>();
  for (const bundle of bundles) {
    const bad = [...bundle.name].find((ch) => !ENDPOINT_NAME_CHARACTER.test(ch));
    if (bad !== undefined || bundle.name.startsWith('.'))
      problems.push({
        file: bundle.file,
        pointer: '',
        message:
          `the endpoint name "${bundle.name}" (the document's file name) ` +
          `${bad === undefined ? 'starts with "."' : `holds ${JSON.stringify(bad)}`}, which the generated files' ` +
          'names and module paths cannot: name the document with letters, digits, spaces, ".", "-" and "_"',
      });
    const key = bundle.name.toLowerCase();
    const other = names.get(key);
    if (other)
      problems.push({
        file: bundle.file,
        pointer: '',
        message:
          other.name === bundle.name
            ? `endpoint name "${bundle.name}" is also the name of ${other.file}`
            : `endpoint name "${bundle.name}" differs from that of ${other.file} ("${other.name}") only in case: ` +
              'on a case-insensitive file system (macOS, Windows) their generated files would be one; rename one',
      });
    else names.set(key, { name: bundle.name, file: bundle.file });
  }
  if (problems.length > 0) throw new SpecError(unique(problems));
  return bundles;
}

/** What an endpoint name, a generated file's name, may hold: letters, digits, spaces, `.`, `-` and `_`. */
const ENDPOINT_NAME_CHARACTER = /^[\p{L}\p{N}\p{M} ._-]$/u;

/**
 * Runs one step of loading `file`: its problems, or a fault of the toolkit's own turned into one problem naming the
 * file (a document must never crash the loader, nor print a stack trace: `--debug` shows it, see cli.ts).
 */
function guarded(file: string, step: () => SpecProblem[]): SpecProblem[] {
  try {
    return step();
  } catch (error) {
    if (error instanceof SpecError) return error.problems;
    return [{ file: displayPath(file), pointer: '', message: internalMessage(error) }];
  }
}

/** The one wording of a loader fault; the stack goes to `--debug` only. */
function internalMessage(error: unknown): string {
  if (process.env.AVALANCHE_OPENRPC_DEBUG && error instanceof Error && error.stack) console.error(error.stack);
  return `the toolkit could not read this document (${error instanceof Error ? error.message : String(error)}); run with --debug for details`;
}

/** A file several documents share (a broken components file) is reported once, not once per document. */
function unique(problems: SpecProblem[]): SpecProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}#${p.pointer}\u0000${p.message}`;
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/**
 * Leaves the examples `advice` is about out of the bundle, so the docs, the published document and the example mock
 * never show them as what the API answers; the advice stays with the bundle for the CLI to print.
 */
function withoutExamples(bundle: BundledDocument, advice: ExampleAdvice[]): void {
  const methods = bundle.document.methods as Array<{ examples?: unknown[] }>;
  const dropped = new Set(advice.map((a) => `${a.methodIndex}/${a.exampleIndex}`));
  methods.forEach((method, m) => {
    if (Array.isArray(method.examples)) method.examples = method.examples.filter((_, x) => !dropped.has(`${m}/${x}`));
  });
  bundle.advice = advice;
}

function checkBundle(bundle: BundledDocument, advice: ExampleAdvice[]): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const written = readJsonFile(bundle.file) as { openrpc?: unknown };
  const options = { relativeUrls: bundle.profile !== 'avalanche' };
  for (const p of checkDocument(written, options))
    problems.push({ file: bundle.file, pointer: p.pointer, message: p.message });
  const methodFiles = new Set(bundle.sources.filter((s) => s.pointer === '' && s.bundled.startsWith('/methods/')));
  const version = typeof written.openrpc === 'string' ? written.openrpc : undefined;
  for (const source of methodFiles) {
    for (const p of checkMethod(readJsonFile(source.file), { ...options, ...(version ? { version } : {}) }))
      problems.push({ file: source.file, pointer: p.pointer, message: p.message });
  }
  if (problems.length > 0) return problems;
  const cycles = refCycles(bundle);
  if (cycles.length > 0) return cycles;
  const tooLarge = expansionProblems(bundle);
  if (tooLarge.length > 0) return tooLarge;
  for (const p of checkDocument(bundle.document, options))
    problems.push({ ...locate(bundle, p.pointer), message: `${p.message} (bundled)` });
  if (problems.length > 0) return problems;
  return checkRules(bundle, bundle.profile, advice);
}
