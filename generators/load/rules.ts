/**
 * Checks of a bundled document beyond the meta-schema. Every document: each schema compiles, each example validates
 * against its method's schemas (formats included), params and errors are not listed twice. A document whose folder opts
 * into the `avalanche` profile (see profile.ts) also gets this project's authoring rules: method names as the node
 * takes them, one file per method, by-name params, every param described, an example per method, and consistent
 * version/deprecation extensions.
 */
import type { Ajv, ValidateFunction } from 'ajv';
import { errorMessage } from '../../runtime/server/params.ts';
import { branchChecker, createAjv } from './ajv.ts';
import { rootCauses } from './causes.ts';
import { type BundledDocument, type ExampleAdvice, locate } from '../common/document.ts';

export type { ExampleAdvice } from '../common/document.ts';
import { deref } from '../common/json.ts';
import { type SpecProblem, localRef, pointerOf } from '../common/problems.ts';
import type { Profile } from './profile.ts';
import { checkPartVersions, checkRange, checkZeroWhenAbsent } from './versions.ts';
import { isObject } from '../common/json.ts';

type Json = Record<string, unknown>;
/** `x-error-name`: the name the generated code gives an error where its message makes a poor one. */
const ERROR_NAME = /^[A-Z][A-Za-z0-9]*$/;
const METHOD_NAME = /^[a-z][a-zA-Z0-9]*\.[a-z][a-zA-Z0-9]*$/;

type Report = (bundledPointer: string, message: string) => void;

/**
 * The document's problems. Outside the avalanche profile an example that does not validate is not one: it goes to
 * `advice` instead (all of its faults, each with file and pointer).
 */
export function checkRules(
  bundle: BundledDocument,
  profile: Profile | undefined,
  advice: ExampleAdvice[] = [],
): SpecProblem[] {
  const avalanche = profile === 'avalanche';
  const problems: SpecProblem[] = [];
  const report: Report = (bundledPointer, message) => problems.push({ ...locate(bundle, bundledPointer), message });
  const document = bundle.document;
  // A fixed id (each document has an ajv of its own): a file's name may hold what a URI may not (a space, `ü`).
  const docId = 'openrpc:document';
  // Each compiled schema runs on a few examples only, so compiling fast is what counts: the code is not optimised.
  // The document is not a schema, so checking it against draft-07 would only compile the meta-schema to find nothing
  // (a wrong keyword inside a schema still fails its compile, reported below).
  // A foreign document's schemas may carry keywords and formats of other dialects (`nullable`, `example`, `uint256`):
  // JSON Schema ignores what it does not know, so only the project's own spec is held to ajv's strict mode.
  const ajv: Ajv = createAjv({
    validateSchema: false,
    verbose: true,
    code: { optimize: false },
    ...(avalanche ? {} : { strict: false, logger: false }),
  });
  // Schemas are compiled where they sit in the document, so their `#/components/...` and `#/methods/...` refs
  // resolve. Only those two members are handed to ajv: any other top-level member (`$schema`, `$id`, `x-...`) would
  // be read as a keyword or an identifier of the schema, and they hold no schema anyway.
  ajv.addKeyword({ keyword: 'components' });
  ajv.addKeyword({ keyword: 'methods' });
  ajv.addSchema({ components: document.components ?? {}, methods: document.methods ?? [] }, docId);

  const compiled = new Map<string, ValidateFunction | undefined>();
  const compile = (pointer: string) => {
    if (!compiled.has(pointer)) {
      try {
        compiled.set(pointer, ajv.compile({ $ref: `${docId}${localRef(pointer)}` }));
      } catch (error) {
        report(pointer, `invalid schema: ${(error as Error).message}`);
        compiled.set(pointer, undefined);
      }
    }
    return compiled.get(pointer);
  };
  const checkBranch = branchChecker(ajv, docId);
  const validateValue = (schemaPointer: string, value: unknown, valuePointer: string, to: Report = report) => {
    const validate = compile(schemaPointer);
    if (validate && !validate(value)) {
      const seen = new Set<string>();
      for (const error of rootCauses(validate.errors ?? [], checkBranch)) {
        const line = `${error.instancePath}\u0000${errorMessage(error)}`;
        if (seen.has(line)) continue;
        seen.add(line);
        to(valuePointer + error.instancePath, errorMessage(error));
      }
    }
  };

  const renamed = document['x-renamed-errors'];
  if (
    renamed !== undefined &&
    (!isObject(renamed) ||
      Object.entries(renamed).some(
        ([from, to]) => !ERROR_NAME.test(from) || typeof to !== 'string' || !ERROR_NAME.test(to),
      ))
  )
    report(
      '/x-renamed-errors',
      'x-renamed-errors must map each earlier error name to its name now, both in PascalCase',
    );

  const methods = Array.isArray(document.methods) ? document.methods : [];
  methods.forEach((method, m) => {
    if (!isObject(method)) return;
    const at = (...tokens: Array<string | number>) => pointerOf(['methods', m, ...tokens]);
    const name = String(method.name);
    if (avalanche && !METHOD_NAME.test(name))
      report(at('name'), `method name "${name}" must be <service>.<lowerCamelCase>, the only form the node accepts`);
    const source = locate(bundle, at());
    if (avalanche && source.pointer === '' && source.file.includes('/methods/')) {
      const expected = source.file
        .split('/')
        .slice(-2)
        .join('.')
        .replace(/\.json$/, '');
      if (expected !== name)
        report(
          at('name'),
          `method "${name}" must live in a file named after it (methods/${name.replace('.', '/')}.json)`,
        );
    }
    if (avalanche && method.paramStructure !== 'by-name')
      report(at('paramStructure'), 'the node takes params by name: paramStructure must be "by-name"');

    const params = (Array.isArray(method.params) ? method.params : []).map((param, p) => {
      const { node, pointer } = deref(document, param);
      return { param: (node ?? {}) as Json, pointer: pointer ?? at('params', p), own: at('params', p) };
    });
    const seen = new Set<string>();
    let optional: string | undefined;
    for (const { param, pointer, own } of params) {
      if (typeof param.name !== 'string' || (!isObject(param.schema) && typeof param.schema !== 'boolean')) {
        report(own, `a param must be a content descriptor (a "name" and a "schema"); ${pointer} is not one`);
        continue;
      }
      if (seen.has(param.name)) report(pointer, `param "${param.name}" is declared twice`);
      seen.add(param.name);
      if (avalanche && (typeof param.description !== 'string' || !param.description.trim()))
        report(pointer, `param "${param.name}" needs a description`);
      // OpenRPC: optional params MUST follow the required ones, or a call by position could not leave them out.
      if (param.required !== true) optional ??= param.name;
      else if (optional !== undefined && method.paramStructure !== 'by-name')
        report(
          own,
          `required param "${param.name}" follows the optional "${optional}": by position it could not be sent without it`,
        );
      compile(`${pointer}/schema`);
    }
    const result = deref(document, method.result);
    const resultPointer = result.pointer ?? at('result');
    if (isObject(result.node)) compile(`${resultPointer}/schema`);

    const errors = Array.isArray(method.errors) ? method.errors : [];
    const errorKeys = new Set<string>();
    errors.forEach((entry, e) => {
      const error = deref(document, entry).node;
      if (
        !isObject(error) ||
        !Number.isInteger(error.code) ||
        typeof error.message !== 'string' ||
        !error.message.trim()
      ) {
        report(at('errors', e), 'an error needs an integer code and a non-empty message');
        return;
      }
      const named = error['x-error-name'];
      if (named !== undefined && (typeof named !== 'string' || !ERROR_NAME.test(named)))
        report(
          `${deref(document, entry).pointer ?? at('errors', e)}/x-error-name`,
          'x-error-name must be a name in PascalCase, e.g. L1ValidatorNotFound',
        );
      const key = `${String(error.code)} ${error.message}`;
      if (errorKeys.has(key)) report(at('errors', e), `error ${key} is listed twice`);
      errorKeys.add(key);
    });

    const examples = Array.isArray(method.examples) ? method.examples : [];
    if (avalanche && examples.length === 0) report(at(), `method "${name}" needs at least one example`);
    examples.forEach((entry, x) => {
      const reportExample: Report = avalanche
        ? report
        : (bundledPointer, message) =>
            advice.push({ ...locate(bundle, bundledPointer), message, method: name, methodIndex: m, exampleIndex: x });
      const { node, pointer } = deref(document, entry);
      const example = (node ?? {}) as Json;
      const base = pointer ?? at('examples', x);
      const given = Array.isArray(example.params) ? example.params : [];
      given.forEach((entryParam, p) => {
        const exampleParam = (deref(document, entryParam).node ?? {}) as Json;
        // Examples of by-position methods name their values freely (`"name": "two"`): those match by position.
        const declared =
          params.find(({ param }) => param.name === exampleParam.name) ?? (avalanche ? undefined : params[p]);
        if (!declared)
          reportExample(
            `${base}/params/${p}`,
            `example param "${String(exampleParam.name)}" is not a param of ${name}`,
          );
        else if ('value' in exampleParam)
          validateValue(`${declared.pointer}/schema`, exampleParam.value, `${base}/params/${p}/value`, reportExample);
      });
      for (const { param } of params) {
        const present = given.some(
          (g, i) => isObject(g) && (g.name === param.name || (!avalanche && params[i]?.param === param)),
        );
        if (param.required === true && !present)
          reportExample(`${base}/params`, `example lacks the required param "${String(param.name)}"`);
      }
      const exampleResult = deref(document, example.result).node;
      if (isObject(result.node)) {
        // Standard OpenRPC lets an example leave its result out (a notification) or give it by `externalValue`.
        if (!isObject(exampleResult) || !('value' in exampleResult)) {
          if (avalanche) report(base, 'example needs a result value');
        } else validateValue(`${resultPointer}/schema`, exampleResult.value, `${base}/result/value`, reportExample);
      }
    });

    if (avalanche) {
      checkVersions(method, at, report);
      checkPagination(document, method, at, report);
      checkPartVersions(document, method, params, isObject(result.node) ? resultPointer : undefined, at, report);
      checkZeroWhenAbsent(params, validateValue, report);
    }
    if (Array.isArray(method['x-result-history']))
      method['x-result-history'].forEach(
        (entry, h) => isObject(entry) && isObject(entry.schema) && compile(at('x-result-history', h, 'schema')),
      );
  });
  return problems;
}

function checkVersions(
  method: Json,
  at: (...tokens: Array<string | number>) => string,
  report: (pointer: string, message: string) => void,
) {
  const versions = method['x-node-versions'];
  if (versions !== undefined) {
    if (!isObject(versions)) return report(at('x-node-versions'), 'x-node-versions must be an object');
    checkRange(versions, at('x-node-versions'), report);
    const { deprecatedSince } = versions;
    if (deprecatedSince && method.deprecated !== true)
      report(at('deprecated'), 'x-node-versions.deprecatedSince is set, so deprecated must be true');
    if (!deprecatedSince && method.deprecated === true)
      report(at('x-node-versions'), 'a deprecated method with node versions must give deprecatedSince');
  }
  if (method.deprecated === true && (typeof method['x-replacement'] !== 'string' || !method['x-replacement'].trim())) {
    report(at('x-replacement'), 'a deprecated method must name its replacement in x-replacement');
  }
  const effects = method['x-side-effects'];
  if (effects !== undefined && !['none', 'node', 'chain'].includes(effects as string)) {
    report(at('x-side-effects'), 'x-side-effects must be "none", "node" or "chain"');
  }
  const discrepancies = method['x-docs-discrepancies'];
  if (
    discrepancies !== undefined &&
    (!Array.isArray(discrepancies) || discrepancies.some((d) => typeof d !== 'string' || !d.trim()))
  ) {
    report(at('x-docs-discrepancies'), 'x-docs-discrepancies must be a list of sentences');
  }
}

/** `x-pagination` names the method's own params (the result's fields are checked where the client is generated). */
function checkPagination(
  document: Json,
  method: Json,
  at: (...tokens: Array<string | number>) => string,
  report: (pointer: string, message: string) => void,
) {
  const pagination = method['x-pagination'];
  if (pagination !== undefined) {
    const p = (isObject(pagination) ? pagination : {}) as Record<string, unknown>;
    const paramNames = ((method.params ?? []) as unknown[]).map(
      (entry) => (deref(document, entry).node as { name?: unknown } | undefined)?.name,
    );
    const names = ['cursorParam', 'cursorField', 'pageSizeParam', 'itemsField'];
    if (
      !isObject(pagination) ||
      names.some((key) => typeof p[key] !== 'string') ||
      !Number.isInteger(p.maxPageSize) ||
      (p.maxPageSize as number) < 1
    ) {
      report(
        at('x-pagination'),
        'x-pagination must give cursorParam, cursorField, pageSizeParam and itemsField as names ' +
          'and maxPageSize as a positive integer',
      );
    } else {
      for (const key of ['cursorParam', 'pageSizeParam'])
        if (!paramNames.includes(p[key]))
          report(at('x-pagination', key), `x-pagination.${key} "${String(p[key])}" is not a param of the method`);
    }
  }
}
