/**
 * The helpers ajv's standalone validators call, so the package needs no ajv at run time, and their error budget.
 */
import type { ValidateFunction } from './params.ts';

type ErrorObject = NonNullable<ValidateFunction['errors']>[number];
/** What the generated validators (ajv's standalone code, typed) build their error lists of. */
export type ValidationError = ErrorObject;
/** The second parameter of ajv's compiled validators: where the value sits in the data a validation started at. */
export interface ValidateOptions {
  instancePath?: string;
  parentData?: unknown;
  parentDataProperty?: unknown;
  rootData?: unknown;
}

/**
 * ajv collects every error (allErrors, so a caller hears about each bad field), which would let one request with a
 * million invalid items build millions of error objects. Each exported validator call has a budget of errors; past it
 * an error is the shared TOO_MANY object, kept once per list (ajv decides validity by its count of errors, which still
 * counts each), and the list a validator hands out ends at the first TOO_MANY.
 */
export const ERROR_LIMIT = 100;
export const TOO_MANY: ErrorObject = Object.freeze({
  instancePath: '',
  keyword: 'errorLimit',
  params: { limit: ERROR_LIMIT },
  message: `has more errors (only the first ${ERROR_LIMIT} are listed)`,
});
/** Errors the running validation may still create in full; one validation runs at a time (they are synchronous). */
export const budget = { left: 0 };

/** Appends an error to a validator's list; TOO_MANY once at its end stands for all that follow. */
export function keep(list: ErrorObject[], error: ErrorObject): void {
  if (error !== TOO_MANY || list[list.length - 1] !== TOO_MANY) list.push(error);
}

export function budgeted(validate: ValidateFunction): ValidateFunction {
  const run: ValidateFunction = (data) => {
    budget.left = ERROR_LIMIT;
    const valid = validate(data);
    const errors = validate.errors ?? null;
    const cut = errors ? errors.indexOf(TOO_MANY) : -1;
    run.errors = cut < 0 || !errors ? errors : errors.slice(0, cut + 1);
    return valid;
  };
  run.errors = null;
  return run;
}

/** String length in code points, as JSON Schema's minLength and maxLength count it. */
export function ucs2length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++, length++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if ((next & 0xfc00) === 0xdc00) i++;
    }
  }
  return length;
}

/** Deep equality of JSON values, for `enum` and `const` values that are objects or arrays. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((item, i) => equal(item, (b as unknown[])[i]));
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every(
      (key) => Object.hasOwn(b, key) && equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}
