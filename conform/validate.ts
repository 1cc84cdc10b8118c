/**
 * Validates what travels on the wire against the spec: a call's params against the method's param schemas, an answer
 * against its result schema or its documented errors, and the JSON-RPC envelope around both. The schemas are checked
 * by the generated server package's validators (compiled once, at generation, by the toolkit's one ajv), so the
 * server, the mock, the conformance runner and the proxy all judge a value the same way.
 */
import type { ErrorObject } from 'ajv';
import type { SpecMethod, SpecModel } from '../generators/model/types.ts';
import type { MethodSpec, ValidateFunction } from '../generated/server/dist/index.js';
import { generatedMethodSpecs, toolkitMethodSpecs } from './generated.ts';
import { previewJson, sameJson } from './json.ts';
import { type DocumentedError, documentedErrorsOf, findDocumentedError } from './errors.ts';
import { releaseValidators } from './release.ts';
import { TOOLKIT_SPEC, loadSpecModel, wireProfile } from './spec.ts';
import { indexMethods } from '../generators/model/build.ts';
import { violationsInWords } from './words.ts';
import { ParamsRefusal, paramsOf } from '../runtime/server/standard.ts';
import { isObject } from '../generators/common/json.ts';

/** One disagreement with the spec: where (a JSON pointer into the request or response) and which rule. */
export interface Violation {
  pointer: string;
  rule: string;
  message: string;
}

interface MethodChecks {
  params: ValidateFunction;
  result: ValidateFunction;
  errors: DocumentedError[];
}

/** JSON-RPC's own errors, which any call may get whatever its method documents. */
const PROTOCOL_ERRORS = new Set([-32700, -32600]);
/** In plain JSON-RPC 2.0, any method may also refuse its params with -32602 "Invalid params". */
const JSONRPC2_ERRORS = new Set([-32700, -32600, -32602]);

export class SpecValidator {
  readonly methods: Map<string, SpecMethod>;
  private readonly checks = new Map<string, MethodChecks>();

  private readonly releases = new Map<string, SpecValidator>();

  readonly model: SpecModel;
  readonly version?: string;
  private readonly generated: Map<string, MethodSpec>;
  /**
   * With `version`, params and results are checked as that release has them (fields, shapes, enum values).
   * `generated`: the validators of the spec's generated server package (default: generated/server, the toolkit's).
   */
  constructor(model: SpecModel, version?: string, generated: Map<string, MethodSpec> = toolkitMethodSpecs()) {
    this.model = model;
    this.version = version;
    this.generated = generated;
    this.methods = indexMethods(model);
    const stale = [...this.methods.keys()].filter((name) => !generated.has(name));
    if (stale.length > 0)
      throw new Error(
        `generated/server has no validators for ${stale.join(', ')}: it is older than the spec (npm run generate)`,
      );
    for (const [name, { method }] of this.methods) {
      const spec = generated.get(name)!;
      const release =
        version && wireProfile(this.methods.get(name)!) === 'node' ? releaseValidators(model, method, version) : {};
      this.checks.set(name, {
        params: (release.params as ValidateFunction | undefined) ?? spec.validateParams,
        result: (release.result as ValidateFunction | undefined) ?? spec.validateResult,
        errors: documentedErrorsOf(method),
      });
    }
  }

  /** This validator as release `version` (e.g. `v1.10.5`) is checked: one instance per release. */
  atRelease(version: string): SpecValidator {
    if (version === this.version) return this;
    let validator = this.releases.get(version);
    if (!validator) this.releases.set(version, (validator = new SpecValidator(this.model, version, this.generated)));
    return validator;
  }

  /**
   * `params` as sent; pointers start at `/params`. Avalanche's methods take an object (or a one-element array around
   * one, or nothing); a plain JSON-RPC 2.0 method takes what a server generated from the spec takes: an object, or
   * an array by position unless its `paramStructure` is `by-name`.
   */
  checkParams(methodName: string, params: unknown): Violation[] {
    const checks = this.checks.get(methodName);
    const entry = this.methods.get(methodName);
    if (!checks || !entry) return [];
    if (wireProfile(entry) === 'jsonrpc2') return this.checkStandardParams(methodName, checks, params);
    if (params === undefined || params === null) params = {};
    if (Array.isArray(params)) {
      // The node also takes `[{...}]`, but the spec says by-name: the array form is the caller's dialect, not the
      // spec's.
      return [
        {
          pointer: '/params',
          rule: 'paramStructure',
          message: 'params must be an object (by-name); the node also takes [ {...} ] but the spec does not',
        },
      ];
    }
    if (!isObject(params)) return [{ pointer: '/params', rule: 'type', message: 'params must be an object' }];
    return checks.params(params) ? [] : toViolations('/params', checks.params.errors, params);
  }

  /** The generated server's own reading of the params (the runtime's `paramsOf`), then its validator. */
  private checkStandardParams(name: string, checks: MethodChecks, params: unknown): Violation[] {
    const spec = this.generated.get(name)!;
    const byName = paramsOf(spec, params);
    if (byName instanceof ParamsRefusal) return [{ pointer: '/params', rule: byName.rule, message: byName.message }];
    if (checks.params(byName)) return [];
    const violations = toViolations('/params', checks.params.errors, byName);
    // Pointers name the item sent, `/params/0`, not the param's name.
    return Array.isArray(params)
      ? violations.map((v) => ({ ...v, pointer: positional(v.pointer, spec.params) }))
      : violations;
  }

  checkResult(methodName: string, result: unknown): Violation[] {
    const validate = this.checks.get(methodName)?.result;
    if (!validate || validate(result)) return [];
    return toViolations('/result', validate.errors, result);
  }

  /** An error answer must be one the method documents (code, and message up to its variable parts). */
  checkError(methodName: string, error: unknown): Violation[] {
    if (!isObject(error)) return [{ pointer: '/error', rule: 'type', message: 'error must be an object' }];
    const form: Violation[] = [];
    if (!Number.isInteger(error.code)) form.push({ pointer: '/error/code', rule: 'type', message: 'must be integer' });
    if (typeof error.message !== 'string')
      form.push({ pointer: '/error/message', rule: 'type', message: 'must be string' });
    if (form.length > 0) return form;
    const code = error.code as number;
    const message = error.message as string;
    const entry = this.methods.get(methodName);
    if ((entry && wireProfile(entry) === 'jsonrpc2' ? JSONRPC2_ERRORS : PROTOCOL_ERRORS).has(code)) return [];
    const documented = this.checks.get(methodName)?.errors ?? [];
    if (findDocumentedError(documented, code, message)) return [];
    const known = documented.length === 0 ? 'it documents none' : `it documents ${documented.length}`;
    return [
      {
        pointer: '/error',
        rule: 'documented-errors',
        message: `${code} "${message}" is not an error ${methodName} documents (${known})`,
      },
    ];
  }

  /** A whole parsed response: the envelope, then the result or the error. */
  checkResponse(methodName: string, response: unknown, requestId: unknown): Violation[] {
    if (!isObject(response)) return [{ pointer: '', rule: 'type', message: 'a JSON-RPC response must be an object' }];
    const violations: Violation[] = [];
    if (response.jsonrpc !== '2.0') violations.push({ pointer: '/jsonrpc', rule: 'const', message: 'must be "2.0"' });
    if (requestId !== undefined && !sameJson(response.id, requestId)) {
      violations.push({ pointer: '/id', rule: 'const', message: `must echo the request id ${previewJson(requestId)}` });
    }
    const hasResult = 'result' in response;
    const hasError = 'error' in response && response.error !== null;
    if (hasResult === hasError) {
      violations.push({ pointer: '', rule: 'oneOf', message: 'must have exactly one of result and error' });
      return violations;
    }
    return [
      ...violations,
      ...(hasResult ? this.checkResult(methodName, response.result) : this.checkError(methodName, response.error)),
    ];
  }
}

/** `/params/<name>/...` as `/params/<position>/...`. */
function positional(pointer: string, names: string[]): string {
  const match = /^\/params\/([^/]+)(.*)$/.exec(pointer);
  if (!match) return pointer;
  const index = names.indexOf(match[1]!.replace(/~1/g, '/').replace(/~0/g, '~'));
  return index < 0 ? pointer : `/params/${index}${match[2]}`;
}

function toViolations(prefix: string, errors: ValidateFunction['errors'], root: unknown): Violation[] {
  // The generated validators are ajv's standalone code: their errors are ajv's error objects.
  return violationsInWords(prefix, (errors ?? []) as ErrorObject[], root);
}

/**
 * The validator of the toolkit's spec, or of the spec given with `--spec` (files or folders, as the generator takes
 * them), for a CLI; a clear exit when the spec or generated/server is broken.
 */
export async function loadValidator(command: string, spec?: string[]): Promise<SpecValidator> {
  try {
    const toolkit = !spec || spec.length === 0;
    return await validatorOf(loadSpecModel(toolkit ? TOOLKIT_SPEC : spec), toolkit);
  } catch (error) {
    // A broken spec or a stale generated/server: nothing to check against.
    process.stderr.write(`${command}: ${(error as Error).message}\n`);
    process.exit(2);
  }
}

/** The validator of a loaded model: the toolkit's spec checks with generated/server's validators, another with its own. */
export async function validatorOf(model: SpecModel, toolkit: boolean): Promise<SpecValidator> {
  return toolkit ? new SpecValidator(model) : new SpecValidator(model, undefined, await generatedMethodSpecs(model));
}
