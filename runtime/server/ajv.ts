/**
 * The validators of each method's params and result: ajv, through its public API, compiling a method's schemas from
 * the document the package embeds on the method's first call. The generated code holds only a table of schemas.
 */
import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction as Compiled } from 'ajv';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import { formats } from './formats.ts';
import type { ValidateFunction } from './params.ts';
import { deferredLinearRegExp } from './patterns.ts';

export type { AnySchema };

/** One method's schemas, as the generated table holds them: `$ref`s point into the embedded document. */
export interface MethodSchemas {
  params: AnySchema;
  result: AnySchema;
}

/** An endpoint's generated validators module: its schemas table, and the components ajv sees otherwise. */
export interface ValidatorsTable {
  schemas: Readonly<Record<string, MethodSchemas>>;
  components: Readonly<Record<string, AnySchema>>;
}

/**
 * ajv collects every error (allErrors, so a caller hears about each bad field), which would let one request with a
 * million invalid items build millions of error objects, and ajv appends a called validator's errors by copying the
 * list (quadratic). So a value is first checked by a validator that stops at the first error, which is all a valid
 * value ever costs; every error is listed only for values of at most LISTED_VALUES JSON values, at most ERROR_LIMIT
 * of them, and TOO_MANY ends a list that is cut short.
 */
export const ERROR_LIMIT = 100;
export const LISTED_VALUES = 500;
/** The violation of a value nested deeper than a validator can follow. */
const TOO_DEEP: ErrorObject = Object.freeze({
  instancePath: '',
  schemaPath: '',
  keyword: 'maxDepth',
  params: {},
  message: 'is nested too deeply to be checked',
});

export const TOO_MANY: ErrorObject = Object.freeze({
  instancePath: '',
  schemaPath: '',
  keyword: 'errorLimit',
  params: { limit: ERROR_LIMIT },
  message:
    `may have more errors (at most ${ERROR_LIMIT} are listed; ` +
    `only the first of a value of over ${LISTED_VALUES} parts)`,
});

// ajv-formats is CommonJS: Node's ESM import gives its module.exports, a bundler its `default`; the plugin is both.
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as unknown as FormatsPlugin;

/**
 * One Ajv per error mode for the whole process, shared by every endpoint (each document under its own $id), so that a
 * server can make it once, while idle (compileSteps), for every endpoint's first call: the process's first making
 * (ajv's vocabularies and the formats, V8 compiling ajv's code) costs ~10 ms of CPU, each one after it ~1 ms.
 */
const shared: { quick?: Ajv; full?: Ajv } = {};

function newAjv(allErrors: boolean): Ajv {
  const ajv = new Ajv({
    allErrors,
    // The spec loader held the schemas to ajv's strict mode and the meta-schema already; a foreign document's
    // keywords and formats of other dialects are annotations here, as JSON Schema has it.
    strict: false,
    logger: false,
    validateSchema: false,
    // `{"__proto__": "x"}` and `{"constructor": 1}` are objects with those properties, not their prototype's.
    ownProperties: true,
    // A method's first call waits for its compilation. Each referenced component is compiled once per endpoint and
    // called by every method that uses it, rather than inlined (and compiled again) into each; ajv's optimisation
    // passes over the generated code cost more at that first call than they save on a check of a few fields.
    inlineRefs: false,
    code: { regExp: deferredLinearRegExp, optimize: false },
  });
  addFormats(ajv, ['date-time']);
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}

/** The shared Ajv of `mode`, holding `root` (added on first need). */
function holding(mode: keyof typeof shared, root: { $id: string }): () => Ajv {
  let added = false;
  return () => {
    const ajv = (shared[mode] ??= newAjv(mode === 'full'));
    if (!added) {
      ajv.addSchema(root as AnySchema);
      added = true;
    }
    return ajv;
  };
}

/** Each endpoint's document sits for ajv at an $id of its own, so that the table's `#/components/...` refs resolve. */
let documents = 0;

const pointerToken = (text: string) => encodeURIComponent(text.replace(/~/g, '~0').replace(/\//g, '~1'));

/** The params validators of each document's methods, compiled one a step: see compileSteps. */
const stepsOf = new WeakMap<object, (methods?: readonly string[]) => Array<() => void>>();

/**
 * The validators of an endpoint's methods: `validator(method, 'params')` is the method's params validator, compiled
 * with its siblings' shared schemas on its first call.
 */
export function methodValidators(
  document: { readonly [key: string]: unknown },
  { schemas, components }: ValidatorsTable,
): (method: string, part: keyof MethodSchemas) => ValidateFunction {
  const own = (document.components ?? {}) as { schemas?: object };
  const root = {
    $id: `openrpc:document:${++documents}`,
    components: { ...own, schemas: { ...own.schemas, ...components } },
    methods: schemas,
  };
  const refOf = (method: string, part: keyof MethodSchemas) => `${root.$id}#/methods/${pointerToken(method)}/${part}`;
  const quickAjv = holding('quick', root);
  const fullAjv = holding('full', root);
  const steps = (methods: readonly string[] = Object.keys(schemas)) =>
    methods.map((method) => () => {
      try {
        compiled(quickAjv(), refOf(method, 'params'));
      } catch {
        // Its own first call reports it.
      }
    });
  stepsOf.set(document, steps);
  let called = false;
  return (method, part) => {
    const ref = refOf(method, part);
    let quick: Compiled | undefined;
    let full: Compiled | undefined;
    const validate: ValidateFunction = (data) => {
      if (!quick) {
        quick = compiled(quickAjv(), ref);
        if (!called) {
          called = true;
          inTurn(steps());
        }
      }
      let valid: boolean;
      try {
        valid = quick(data) as boolean;
      } catch (error) {
        // ajv's validators recurse: a value nested deeper than the stack (Go decodes 10,000 levels) is refused.
        if (!(error instanceof RangeError)) throw error;
        validate.errors = [TOO_DEEP];
        return false;
      }
      if (valid) {
        validate.errors = null;
        return true;
      }
      if (partsWithin(data, LISTED_VALUES)) {
        full ??= compiled(fullAjv(), ref);
        full(data);
        const errors = full.errors ?? [];
        validate.errors = errors.length > ERROR_LIMIT ? [...errors.slice(0, ERROR_LIMIT), TOO_MANY] : errors;
      } else validate.errors = [...(quick.errors ?? []), TOO_MANY];
      return false;
    };
    validate.errors = null;
    return validate;
  };
}

/**
 * The params validators of `document`'s methods (every one when `methods` is left out), one step each, for a server
 * to take while it has nothing to do (the mock: mock/when-idle.ts): their first calls then find them compiled, and
 * the process's first call an Ajv made. A document no endpoint was made from has none.
 */
export function compileSteps(document: object, methods?: readonly string[]): Array<() => void> {
  return stepsOf.get(document)?.(methods) ?? [];
}

/**
 * Once an endpoint has had its first call, its other methods' params validators are compiled one per turn of the
 * event loop, so that their first calls find them ready: a method's first compilation took 1-35 ms of CPU, most of
 * it V8 and ajv's own code still cold. A request arriving meanwhile waits for one method's compilation at most;
 * start-up does none of it, an endpoint never called compiles nothing, and one compiled before costs a lookup.
 */
function inTurn(steps: Array<() => void>): void {
  const next = () => {
    steps.shift()?.();
    if (steps.length > 0) later(next);
  };
  later(next);
}

/**
 * A timer, which runs after the pending I/O; unref'd in Node, it keeps no process alive. Not an unref'd setImmediate,
 * which a loop waiting for I/O runs only once something else wakes it.
 */
const later = (task: () => void): void => {
  (setTimeout(task, 0) as unknown as { unref?: () => void }).unref?.();
};

function compiled(ajv: Ajv, ref: string): Compiled {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema at ${ref}`);
  return validate;
}

/** Whether `value` is made of at most `limit` JSON values (itself, its items and members, at every depth). */
function partsWithin(value: unknown, limit: number): boolean {
  let left = limit;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    if (--left < 0) return false;
    const next = pending.pop();
    if (typeof next === 'object' && next !== null)
      for (const key in next) {
        if (Object.hasOwn(next, key)) pending.push((next as Record<string, unknown>)[key]);
        if (pending.length > left) return false;
      }
  }
  return true;
}
