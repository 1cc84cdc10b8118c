/**
 * load -> validate -> model -> generators -> emit. Every generator's files are in hand before any reaches the output
 * folder (emit/output.ts), so a broken spec or template leaves it untouched.
 */
import { join, resolve } from 'node:path';
import { ARTIFACTS } from './artifacts.ts';
import { DEFAULT_OUT, type GeneratedFile } from './emit/files.ts';
import { type CheckReport, type Scope, type WriteReport, checkOutput, writeOutput } from './emit/output.ts';
import { headerText } from './emit/header.ts';
import { loadTemplates } from './emit/templates.ts';
import { loadSpec } from './load/index.ts';
import { specFiles } from './load/spec-files.ts';
import { buildModel, packageNamesFrom } from './model/build.ts';
import type { SpecModel } from './model/types.ts';

export interface GenerateOptions {
  /** Endpoint documents: files, or folders whose `*.json` files are endpoint documents. Default `openrpc`. */
  spec?: string | string[];
  /** Output folder. Default `generated`. */
  out?: string;
  /** Compare with the output folder instead of writing it. */
  check?: boolean;
  /** Only these artifacts (default: all), e.g. `['openrpc', 'client']`. */
  artifacts?: string[];
  /** Folder of Handlebars templates. Default: the toolkit's own `templates/`. */
  templates?: string;
  /**
   * The generated packages are `<packageName>-client` and `<packageName>-server`. Default: the Avalanche spec's
   * `@avalanche-openrpc/client` and `/server`, any other spec's name from its first document's title.
   */
  packageName?: string;
}

export type GenerateResult = (
  | { mode: 'write'; report: WriteReport; files: number }
  | { mode: 'check'; report: CheckReport; files: number }
) & { advice: NonNullable<SpecModel['advice']> };

const TOOLKIT_ROOT = resolve(import.meta.dirname, '..');
/** The toolkit's own templates, used unless `templates` names another folder. */
export const DEFAULT_TEMPLATES = join(TOOLKIT_ROOT, 'templates');
export { specFiles };

/**
 * The project's own spec sets, each generated into packages of its own: the Avalanche APIs (`openrpc/`, avalanche
 * profile), and the C-Chain's EVM API (`openrpc/c-chain/`: plain OpenRPC, ethereum/execution-apis' document and
 * coreth's additions), whose names (`Address`, `Block`) mean other things than the Avalanche APIs' do.
 */
export const PROJECT_SPECS: Array<{ spec: string; out: string; packageName?: string }> = [
  { spec: 'openrpc', out: DEFAULT_OUT },
  // Named after the project, not after its first document's title ("C-Chain development controls ...").
  { spec: 'openrpc/c-chain', out: join(DEFAULT_OUT, 'c-chain'), packageName: '@avalanche-openrpc/c-chain' },
];

/** npm's rule for a package name: lower case, URL-safe, optionally scoped. */
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

export function loadModel(spec?: string | string[], packageName?: string): SpecModel {
  if (packageName !== undefined && !PACKAGE_NAME.test(packageName))
    throw new Error(
      `package name "${packageName}" is not one npm takes: lower-case letters, digits, - . _ ~, optionally @scope/`,
    );
  const model = buildModel(loadSpec(specFiles(spec)));
  return packageName === undefined ? model : { ...model, packageNames: packageNamesFrom(packageName) };
}

/** Every chosen artifact's files, in memory. */
export async function renderArtifacts(
  model: SpecModel,
  options: Pick<GenerateOptions, 'artifacts' | 'templates' | 'out'> = {},
): Promise<GeneratedFile[]> {
  const known = ARTIFACTS.map((a) => a.name);
  const chosen = options.artifacts ?? known;
  const unknown = chosen.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`unknown artifact ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const templatesDir = options.templates ?? DEFAULT_TEMPLATES;
  const out = options.out ?? DEFAULT_OUT;
  const files: GeneratedFile[] = [];
  for (const artifact of ARTIFACTS.filter((a) => chosen.includes(a.name)))
    files.push(...(await artifact.generate(model, { templates: loadTemplates(templatesDir, artifact.name), out })));
  return files;
}

export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const model = loadModel(options.spec, options.packageName);
  const files = await renderArtifacts(model, options);
  const out = options.out ?? DEFAULT_OUT;
  const header = headerText(model.endpoints.map((e) => e.file));
  // With --artifact, the run answers for the chosen artifacts' folders only: the others' files are neither extra nor
  // lost.
  const scope: Scope =
    options.artifacts === undefined ? {} : { folders: [...new Set(files.map((file) => file.path.split('/')[0]!))] };
  const advice = model.advice ?? [];
  const count = files.length + 1;
  return options.check
    ? { mode: 'check', report: checkOutput(out, files, header, scope), files: count, advice }
    : { mode: 'write', report: writeOutput(out, files, header, scope), files: count, advice };
}
