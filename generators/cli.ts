/**
 * `avalanche-openrpc` / `npm run generate`: generate every artifact into `generated/`, or with `--check` report
 * what is stale, missing or extra and exit 1. A broken spec prints every problem with its file and JSON pointer.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_TEMPLATES, type GenerateOptions, PROJECT_SPECS, generate, loadModel, specFiles } from './pipeline.ts';
import { forTerminal, parseCli } from '../conform/cli-common.ts';
import { SpecError } from './load/index.ts';
import type { SpecModel } from './model/types.ts';
import { readyMockCaches } from './cli-mock-caches.ts';
import { watchAndRun } from './watch.ts';

/** Every line printed quotes the document's strings: none reaches the terminal as a control sequence. */
const say = {
  log: (text: string) => console.log(forTerminal(text)),
  warn: (text: string) => console.warn(forTerminal(text)),
  error: (text: string) => console.error(forTerminal(text)),
};

const USAGE = `Usage: avalanche-openrpc [options]
  --spec <path>       endpoint document or folder of them (repeatable; default: the project's spec sets)
  --out <dir>         output folder (default generated, and generated/c-chain for openrpc/c-chain)
  --artifact <name>   generate only this artifact (repeatable)
  --templates <dir>   Handlebars templates folder (default: the toolkit's templates/)
  --package-name <n>  name the packages <n>-client and <n>-server (default: from the spec's title)
  --check             compare with the output folder; exit 1 listing stale, missing and extra files
  --validate          only load and validate the spec
  --watch             regenerate after every save to the spec or templates (prints what changed and how long it took)
  --debug             print the stack trace of a fault inside the toolkit (a spec problem never has one)
  --help, -h          this text`;

async function run(options: GenerateOptions, validateOnly: boolean, debug: boolean): Promise<boolean> {
  try {
    if (validateOnly) {
      const model = loadModel(options.spec);
      printAdvice(model.advice ?? [], true);
      say.log(
        `spec ok: ${model.endpoints.length} documents, ` +
          `${model.endpoints.reduce((n, e) => n + e.methods.length, 0)} methods`,
      );
      return true;
    }
    const result = await generate(options);
    printAdvice(result.advice, false);
    if (result.mode === 'check') {
      const { stale, missing, extra } = result.report;
      for (const path of stale) say.error(`stale:   ${path}`);
      for (const path of missing) say.error(`missing: ${path}`);
      for (const path of extra) say.error(`extra:   ${path}`);
      const drift = stale.length + missing.length + extra.length;
      if (drift > 0) {
        say.error(`${drift} file(s) out of sync with the spec; run npm run generate`);
        return false;
      }
      say.log(`in sync: ${result.files} files`);
      return true;
    }
    const { written, removed, kept, unchanged } = result.report;
    say.log(
      `generated ${result.files} files: ${written.length} written, ${removed.length} removed, ${unchanged} unchanged`,
    );
    for (const path of kept)
      say.warn(
        `kept:    ${path} (not generated, and not written by an earlier run: delete it by hand if it is not yours)`,
      );
    return true;
  } catch (error) {
    say.error(failure(error, options, debug));
    return false;
  }
}

/**
 * Examples that do not validate. `--validate` lists each fault with its file, pointer and rule, grouped per method; a
 * generation says how many there are per file, as the vendored execution-apis document's are known and many.
 */
function printAdvice(advice: NonNullable<SpecModel['advice']>, everyFault: boolean): void {
  if (advice.length === 0) return;
  const leftOut = 'left out of the docs, the published document and the example mock';
  if (!everyFault) {
    const byFile = new Map<string, Set<string>>();
    for (const fault of advice) byFile.set(fault.file, (byFile.get(fault.file) ?? new Set()).add(fault.method));
    for (const [file, methods] of byFile)
      say.warn(
        `warning: ${file}: examples of ${methods.size} method(s) do not match their own schemas; ${leftOut} ` +
          '(--validate lists them)',
      );
    return;
  }
  const byMethod = new Map<string, typeof advice>();
  for (const fault of advice) byMethod.set(fault.method, [...(byMethod.get(fault.method) ?? []), fault]);
  say.warn(`warning: ${byMethod.size} method(s) have examples that do not match their own schemas; ${leftOut}:`);
  for (const [method, faults] of byMethod) {
    say.warn(`  ${method}:`);
    for (const fault of faults) say.warn(`    ${fault.file}#${fault.pointer}: ${fault.message}`);
  }
}

/**
 * What a failed run prints: a spec problem names its file and pointer; anything else names the documents it came
 * from, in one sentence, and the stack trace only with --debug (it tells an author nothing, and the toolkit's user
 * is not its developer).
 */
function failure(error: unknown, options: GenerateOptions, debug: boolean): string {
  if (error instanceof SpecError) return error.message;
  if (debug) return error instanceof Error ? (error.stack ?? error.message) : String(error);
  const message = error instanceof Error ? error.message : String(error);
  const overflow = error instanceof RangeError && /call stack/i.test(message);
  const files = specFiles(options.spec).join(', ');
  return overflow
    ? `generating from ${files} failed: the document nests or chains references deeper than the toolkit can follow ` +
        `(see MAX_DEPTH in generators/load/depth.ts); run with --debug for the stack trace`
    : `generating from ${files} failed: ${message.split('\n')[0]} (run with --debug for the stack trace)`;
}

// A mistyped command line is a usage error in one sentence, as for the project's other commands.
const values = parseCli('avalanche-openrpc', USAGE, {
  spec: { type: 'string', multiple: true },
  out: { type: 'string' },
  artifact: { type: 'string', multiple: true },
  templates: { type: 'string' },
  'package-name': { type: 'string' },
  check: { type: 'boolean', default: false },
  validate: { type: 'boolean', default: false },
  watch: { type: 'boolean', default: false },
  debug: { type: 'boolean', default: false },
});
// The loader turns a fault of its own into a spec problem; with --debug it prints the stack as well (load/index.ts).
if (values.debug) process.env.AVALANCHE_OPENRPC_DEBUG = '1';
const common: GenerateOptions = {
  ...(values.artifact ? { artifacts: values.artifact } : {}),
  ...(values.templates ? { templates: values.templates } : {}),
  ...(values['package-name'] ? { packageName: values['package-name'] } : {}),
  check: values.check,
};
// Without --spec and --out, the project's own spec sets, each into its own packages (pipeline.ts, PROJECT_SPECS).
const projectRuns = PROJECT_SPECS.map((set) => ({ ...set, ...common }));
const runs: GenerateOptions[] =
  values.spec || values.out
    ? [{ ...common, ...(values.spec ? { spec: values.spec } : {}), ...(values.out ? { out: values.out } : {}) }]
    : projectRuns;
const runAll = async () => {
  let ok = true;
  for (const options of runs) ok = (await run(options, values.validate, values.debug)) && ok;
  return ok;
};
const ok = await runAll();
// The project's own packages written: the mock that serves them starts warm the first time (./cli-mock-caches.ts).
if (ok && runs === projectRuns && !values.check && !values.validate) await readyMockCaches();
if (!values.watch) process.exit(ok ? 0 : 1);

// A document's `$ref`s reach files beside it, so a document given alone is watched with its folder.
const specFolders = (values.spec ?? PROJECT_SPECS.map((set) => set.spec)).map((path) =>
  statSync(path, { throwIfNoEntry: false })?.isFile() ? dirname(path) : path,
);
await watchAndRun({
  paths: [...new Set([...specFolders, values.templates ?? DEFAULT_TEMPLATES])],
  ignore: values.out ?? 'generated',
  run: runAll,
});
