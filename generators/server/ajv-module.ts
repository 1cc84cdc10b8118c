/**
 * ajv's standalone module code (`ajv/dist/standalone`, multi-export form, ESM), in linear time. ajv's own version
 * rebuilds the whole module as one code object on every export (`code = _\`${code}...\``), copying every piece
 * so far each time: 2,000 exports (an endpoint of 1,000 methods) cost seconds and hundreds of MB of garbage, and
 * 20,000 did not finish. This is the same algorithm with each export's code turned into text once and the module
 * joined at the end; its output is byte for byte ajv's.
 */
import { type Ajv, type ValidateFunction, type Code, Name, _, nil } from 'ajv';

// ajv's UsedValueState (compile/codegen/scope.ts), whose maps the scope shares with this code.
const STARTED = 0;
const COMPLETED = 1;
const IDENTIFIER = /^[a-z$_][a-z$_0-9]*$/i;
// ajv's code class (not exported by name): a piece of code that is text, never quoted as a string value.
const RawCode = nil.constructor as new (code: string) => Code;
const CONST = new Name('const');
const VAR = new Name('var');

type UsedValues = Record<string, Map<unknown, number> | undefined>;
interface Source {
  validateName: Name & { prefix: string };
  validateCode: string;
  scopeValues: object;
  evaluated?: Code;
}
interface ScopeName extends Name {
  prefix: string;
  value?: { ref?: unknown };
}
interface Scope {
  opts: { _n: Code; es5?: boolean };
  scopeCode(values: object, used: UsedValues, getCode: (name: ScopeName) => Code | undefined): Code;
}

/**
 * The text as one flat string. ajv builds its code of small pieces, and a string concatenated of them is a tree that
 * keeps every piece (tens of bytes of overhead each: 73 MB of heap for 10 MB of code at 3,000 methods) until
 * something reads it whole. A regular expression does (V8 flattens its subject in place, and the pieces go); a plain
 * indexOf or a number conversion did not, measured.
 */
function flat(text: string): string {
  /^/.test(text);
  return text;
}

/**
 * The ESM module exporting, under each key of `exports`, the validator of the schema id it maps to: the parts of its
 * text, each starting at the top level (the module is their concatenation).
 */
export function standaloneModule(ajv: Ajv, exports: Record<string, string>): string[] {
  if (!ajv.opts.code.source || !ajv.opts.code.esm) throw new Error('standaloneModule needs code.source and code.esm');
  const scope = ajv.scope as unknown as Scope;
  const { _n } = scope.opts;
  const used: UsedValues = {};
  const usedState = (name: ScopeName) => used[name.prefix]?.get(name);
  const setUsedState = (name: ScopeName, state: number) => {
    const names = (used[name.prefix] ??= new Map());
    names.set(name, state);
  };

  function validateCode(source: Source | undefined): Code {
    if (!source) throw new Error('moduleCode: function does not have "source" property');
    if (usedState(source.validateName) === COMPLETED) return nil;
    setUsedState(source.validateName, STARTED);
    const scopeCode = scope.scopeCode(source.scopeValues, used, refValidateCode);
    const code = new RawCode(`${scopeCode}${_n}${source.validateCode}`);
    return source.evaluated ? _`${code}${source.validateName}.evaluated = ${source.evaluated};${_n}` : code;
  }

  function refValidateCode(name: ScopeName): Code | undefined {
    const ref = name.value?.ref;
    if (name.prefix === 'validate' && typeof ref === 'function')
      return validateCode((ref as ValidateFunction).source as never);
    if ((name.prefix === 'root' || name.prefix === 'wrapper') && typeof ref === 'object' && ref !== null) {
      const { validate, validateName } = ref as { validate?: ValidateFunction; validateName?: Name };
      if (!validateName) throw new Error('ajv internal error');
      const wrapper = _`${scope.opts.es5 ? VAR : CONST} ${name} = {validate: ${validateName}};`;
      if (usedState(validateName as ScopeName) === STARTED) return wrapper;
      return _`${wrapper}${_n}${validateCode(validate?.source as never)}`;
    }
    return undefined;
  }

  const parts = ['"use strict";'];
  for (const [key, id] of Object.entries(exports)) {
    const validate = ajv.getSchema(id);
    if (!validate) throw new Error(`moduleCode: no schema with id ${id}`);
    if (!IDENTIFIER.test(key)) throw new Error(`CodeGen: invalid export name: ${key}, use explicit $id name mapping`);
    const source = validate.source as unknown as Source;
    // Each export's code becomes text on its own: the module is never one growing code object.
    parts.push(flat(`${_n}export const ${key} = ${source.validateName};${_n}${validateCode(source)}`));
  }
  return parts;
}
