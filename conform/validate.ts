/**
 * Validates what travels on the wire against the spec: a call's params against the method's param schemas, an answer
 * against its result schema or its documented errors, and the JSON-RPC envelope around both. The schemas are checked
 * by the generated server package's validators (compiled once, at generation, by the toolkit's one ajv), so the
 * server, the mock, the conformance runner and the proxy all judge a value the same way.
 */
import type { ErrorObject } from 'ajv';
import type { SpecModel } from '../generators/model/types.ts';
import * as generatedServer from '../generated/server/dist/index.js';
import type { MethodSpec, ValidateFunction } from '../generated/server/dist/index.js';
import { previewJson, sameJson } from './json.ts';
import { type DocumentedError, documentedErrorsOf, findDocumentedError } from './errors.ts';
import { releaseValidators } from './release.ts';
import { type SpecMethod, indexMethods, loadSpecModel } from './spec.ts';
import { violationsInWords } from './words.ts';

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

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** JSON-RPC's own errors, which any call may get whatever its method documents. */
const PROTOCOL_ERRORS = new Set([-32700, -32600]);

/** Every method's generated validators by wire name (the package exports one `<endpoint>Methods` list per endpoint). */
function generatedValidators(): Map<string, MethodSpec> {
  const byName = new Map<string, MethodSpec>();
  for (const [name, value] of Object.entries(generatedServer)) {
    if (name.endsWith('Methods') && Array.isArray(value))
      for (const spec of value as readonly MethodSpec[]) byName.set(spec.name, spec);
  }
  return byName;
}

export class SpecValidator {
  readonly methods: Map<string, SpecMethod>;
  private readonly checks = new Map<string, MethodChecks>();

  private readonly releases = new Map<string, SpecValidator>();

  /** With `version`, params and results are checked as that release has them (fields, shapes, enum values). */
  constructor(
    readonly model: SpecModel,
    readonly version?: string,
  ) {
    this.methods = indexMethods(model);
    const generated = generatedValidators();
    const stale = [...this.methods.keys()].filter((name) => !generated.has(name));
    if (stale.length > 0)
      throw new Error(
        `generated/server has no validators for ${stale.join(', ')}: it is older than the spec (npm run generate)`,
      );
    for (const [name, { method }] of this.methods) {
      const spec = generated.get(name)!;
      const release = version ? releaseValidators(model, method, version) : {};
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
    if (!validator) this.releases.set(version, (validator = new SpecValidator(this.model, version)));
    return validator;
  }

  /** `params` as sent (an object, a one-element array around one, or absent); pointers start at `/params`. */
  checkParams(methodName: string, params: unknown): Violation[] {
    const checks = this.checks.get(methodName);
    if (!checks) return [];
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
    if (PROTOCOL_ERRORS.has(code)) return [];
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

function toViolations(prefix: string, errors: ValidateFunction['errors'], root: unknown): Violation[] {
  // The generated validators are ajv's standalone code: their errors are ajv's error objects.
  return violationsInWords(prefix, (errors ?? []) as ErrorObject[], root);
}

/** The spec's validator for a CLI, or a clear exit when the spec or generated/server is broken. */
export function loadValidator(command: string): SpecValidator {
  try {
    return new SpecValidator(loadSpecModel());
  } catch (error) {
    // A broken spec or a stale generated/server: nothing to check against.
    process.stderr.write(`${command}: ${(error as Error).message}\n`);
    process.exit(2);
  }
}
