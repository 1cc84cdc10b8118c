/**
 * The project's own rules for a bundled document, beyond the meta-schema: method naming and by-name params, every
 * schema compiles, every example validates against its method's schemas (formats and checksums included), errors
 * are well formed, and the version/deprecation extensions are consistent.
 */
import type { Ajv, ValidateFunction } from 'ajv';
import { createAjv, describeAjvError } from './ajv.ts';
import { type BundledDocument, locate } from './bundle.ts';
import { type SpecProblem, pointerOf, resolvePointer } from './problems.ts';
import { VERSION_PATTERN as VERSION, compareVersions } from '../model/versions.ts';
import { checkPartVersions } from './versions.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export const METHOD_NAME = /^[a-z][a-zA-Z0-9]*\.[a-z][a-zA-Z0-9]*$/;
const VERSION_KEYS = ['since', 'deprecatedSince', 'lastVersion', 'removedIn'] as const;

/** Follows a local `#/components/...` reference inside the bundled document. */
export function deref(document: Json, node: unknown): { node: unknown; pointer?: string } {
  if (isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
    const pointer = node.$ref.slice(1);
    return { node: resolvePointer(document, pointer).value, pointer };
  }
  return { node };
}

export function checkRules(bundle: BundledDocument): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const report = (bundledPointer: string, message: string) => problems.push({ ...locate(bundle, bundledPointer), message });
  const document = bundle.document;
  const docId = `openrpc:${bundle.name}`;
  // Each compiled schema runs on a few examples only, so compiling fast is what counts: the code is not optimised.
  // The document is not a schema, so checking it against draft-07 would only compile the meta-schema to find nothing
  // (a wrong keyword inside a schema still fails its compile, reported below).
  const ajv: Ajv = createAjv({ validateSchema: false, code: { optimize: false } });
  // Schemas are compiled where they sit in the document, so their `#/components/...` refs resolve; the document's own
  // top-level members are not schema keywords, so strict mode is told to skip them.
  for (const keyword of Object.keys(document)) ajv.addKeyword({ keyword });
  ajv.addSchema(document, docId);

  const compiled = new Map<string, ValidateFunction | undefined>();
  const compile = (pointer: string) => {
    if (!compiled.has(pointer)) {
      try {
        compiled.set(pointer, ajv.compile({ $ref: `${docId}#${pointer}` }));
      } catch (error) {
        report(pointer, `invalid schema: ${(error as Error).message}`);
        compiled.set(pointer, undefined);
      }
    }
    return compiled.get(pointer);
  };
  const validateValue = (schemaPointer: string, value: unknown, valuePointer: string) => {
    const validate = compile(schemaPointer);
    if (validate && !validate(value)) {
      for (const error of validate.errors ?? []) report(valuePointer + error.instancePath, describeAjvError(error));
    }
  };

  const methods = Array.isArray(document.methods) ? document.methods : [];
  methods.forEach((method, m) => {
    if (!isObject(method)) return;
    const at = (...tokens: Array<string | number>) => pointerOf(['methods', m, ...tokens]);
    const name = String(method.name);
    if (!METHOD_NAME.test(name)) report(at('name'), `method name "${name}" must be <service>.<lowerCamelCase>, the only form the node accepts`);
    const source = locate(bundle, at());
    if (source.pointer === '' && source.file.includes('/methods/')) {
      const expected = source.file.split('/').slice(-2).join('.').replace(/\.json$/, '');
      if (expected !== name) report(at('name'), `method "${name}" must live in a file named after it (methods/${name.replace('.', '/')}.json)`);
    }
    if (method.paramStructure !== 'by-name') report(at('paramStructure'), 'the node takes params by name: paramStructure must be "by-name"');

    const params = (Array.isArray(method.params) ? method.params : []).map((param, p) => {
      const { node, pointer } = deref(document, param);
      return { param: (node ?? {}) as Json, pointer: pointer ?? at('params', p) };
    });
    const seen = new Set<string>();
    for (const { param, pointer } of params) {
      if (seen.has(String(param.name))) report(pointer, `param "${String(param.name)}" is declared twice`);
      seen.add(String(param.name));
      if (typeof param.description !== 'string' || !param.description.trim()) report(pointer, `param "${String(param.name)}" needs a description`);
      compile(`${pointer}/schema`);
    }
    const result = deref(document, method.result);
    const resultPointer = result.pointer ?? at('result');
    if (isObject(result.node)) compile(`${resultPointer}/schema`);

    const errors = Array.isArray(method.errors) ? method.errors : [];
    const errorKeys = new Set<string>();
    errors.forEach((entry, e) => {
      const error = deref(document, entry).node;
      if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string' || !error.message.trim()) {
        report(at('errors', e), 'an error needs an integer code and a non-empty message');
        return;
      }
      const key = `${String(error.code)} ${error.message}`;
      if (errorKeys.has(key)) report(at('errors', e), `error ${key} is listed twice`);
      errorKeys.add(key);
    });

    const examples = Array.isArray(method.examples) ? method.examples : [];
    if (examples.length === 0) report(at(), `method "${name}" needs at least one example`);
    examples.forEach((entry, x) => {
      const { node, pointer } = deref(document, entry);
      const example = (node ?? {}) as Json;
      const base = pointer ?? at('examples', x);
      const given = Array.isArray(example.params) ? example.params : [];
      given.forEach((entryParam, p) => {
        const exampleParam = (deref(document, entryParam).node ?? {}) as Json;
        const declared = params.find(({ param }) => param.name === exampleParam.name);
        if (!declared) report(`${base}/params/${p}`, `example param "${String(exampleParam.name)}" is not a param of ${name}`);
        else validateValue(`${declared.pointer}/schema`, exampleParam.value, `${base}/params/${p}/value`);
      });
      for (const { param } of params) {
        const present = given.some((g) => isObject(g) && g.name === param.name);
        if (param.required === true && !present) report(`${base}/params`, `example lacks the required param "${String(param.name)}"`);
      }
      const exampleResult = deref(document, example.result).node;
      if (isObject(result.node)) {
        if (!isObject(exampleResult) || !('value' in exampleResult)) report(base, 'example needs a result value');
        else validateValue(`${resultPointer}/schema`, exampleResult.value, `${base}/result/value`);
      }
    });

    checkVersions(method, at, report);
    checkPartVersions(document, method, params, isObject(result.node) ? resultPointer : undefined, at, report);
    if (Array.isArray(method['x-result-history'])) method['x-result-history'].forEach((entry, h) => isObject(entry) && isObject(entry.schema) && compile(at('x-result-history', h, 'schema')));
  });
  return problems;
}

function checkVersions(method: Json, at: (...tokens: Array<string | number>) => string, report: (pointer: string, message: string) => void) {
  const versions = method['x-node-versions'];
  if (versions !== undefined) {
    if (!isObject(versions)) return report(at('x-node-versions'), 'x-node-versions must be an object');
    for (const [key, value] of Object.entries(versions)) {
      if (!(VERSION_KEYS as readonly string[]).includes(key)) report(at('x-node-versions', key), `unknown key; expected one of ${VERSION_KEYS.join(', ')}`);
      else if (typeof value !== 'string' || !VERSION.test(value)) report(at('x-node-versions', key), 'must be a release tag such as "v1.12.2"');
    }
    const { since, lastVersion, removedIn, deprecatedSince } = versions as Record<string, string | undefined>;
    // Unparsable tags are reported above; a pair with one missing or unparsable is not compared.
    const compare = (a: string | undefined, b: string | undefined) => (a && b && VERSION.test(a) && VERSION.test(b) ? compareVersions(a, b) : undefined);
    const after = (a: string | undefined, b: string | undefined) => (compare(a, b) ?? 0) > 0;
    const notBefore = (a: string | undefined, b: string | undefined) => (compare(a, b) ?? -1) >= 0;
    if (after(since, lastVersion)) report(at('x-node-versions'), 'since must not be after lastVersion');
    if (notBefore(lastVersion, removedIn)) report(at('x-node-versions'), 'lastVersion must be before removedIn');
    if (notBefore(since, removedIn)) report(at('x-node-versions'), 'since must be before removedIn');
    if (after(since, deprecatedSince)) report(at('x-node-versions'), 'deprecatedSince must not be before since');
    if (deprecatedSince && method.deprecated !== true) report(at('deprecated'), 'x-node-versions.deprecatedSince is set, so deprecated must be true');
    if (!deprecatedSince && method.deprecated === true) report(at('x-node-versions'), 'a deprecated method with node versions must give deprecatedSince');
  }
  if (method.deprecated === true && (typeof method['x-replacement'] !== 'string' || !method['x-replacement'].trim())) {
    report(at('x-replacement'), 'a deprecated method must name its replacement in x-replacement');
  }
  const effects = method['x-side-effects'];
  if (effects !== undefined && !['none', 'node', 'chain'].includes(effects as string)) {
    report(at('x-side-effects'), 'x-side-effects must be "none", "node" or "chain"');
  }
  const discrepancies = method['x-docs-discrepancies'];
  if (discrepancies !== undefined && (!Array.isArray(discrepancies) || discrepancies.some((d) => typeof d !== 'string' || !d.trim()))) {
    report(at('x-docs-discrepancies'), 'x-docs-discrepancies must be a list of sentences');
  }
}
