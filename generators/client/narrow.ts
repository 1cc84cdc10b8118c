/**
 * What the client's signatures say beyond the shared types. The shared types describe the wire as the server sees it
 * (`encoding` matched case-insensitively, so `string`); a caller is better served by the values a param takes, as
 * literals with completions, and by a result narrowed to the `encoding` it sent where the spec's result schema says
 * so with `if`/`then`/`else` on a field that echoes a param.
 */
import { componentName } from '../model/schema-walk.ts';
import type { JsonSchema, MethodModel, SpecModel } from '../model/types.ts';
import { jsString, propertyKey } from '../shared/escape.ts';
import { paramsIntersection } from '../shared/lines.ts';
import { isSchema } from '../model/schema-walk.ts';

/** One signature of a client method: `params` and the result type, both TypeScript. */
export interface Overload {
  params: string;
  result: string;
  /** The params object must be given, even where every param is optional. */
  paramsRequired?: boolean;
  /** Shared types the signature names beyond the method's Params and Result. */
  types?: string[];
}

const MAX_LITERALS = 64;
/**
 * The strings a pattern matches, when they are few: anchors, literals, escapes, character classes without ranges,
 * groups with `|` and `?`. A pattern that matches every spelling of its words in any case (`[hH][eE][xX]`) gives the
 * lower-case spellings, the node's own. Anything else (repetition, ranges) gives undefined.
 */
function patternLiterals(pattern: string): string[] | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$')) return undefined;
  let pos = 1;
  const source = pattern.slice(0, -1);
  const sequence = (): string[] | undefined => {
    let out = [''];
    while (pos < source.length && source[pos] !== '|' && source[pos] !== ')') {
      let atom: string[] | undefined;
      const ch = source[pos++]!;
      if (ch === '(') {
        if (source.startsWith('?:', pos)) pos += 2;
        atom = alternatives();
        if (source[pos++] !== ')') return undefined;
      } else if (ch === '[') {
        const end = source.indexOf(']', pos);
        const chars = source.slice(pos, end);
        if (end < 0 || /[\\^-]/.test(chars)) return undefined;
        atom = [...chars];
        pos = end + 1;
      } else if (ch === '\\') {
        const escaped = source[pos++];
        if (!escaped || /[A-Za-z0-9]/.test(escaped)) return undefined;
        atom = [escaped];
      } else if ('.*+{}?$^'.includes(ch)) return undefined;
      else atom = [ch];
      if (!atom) return undefined;
      if (source[pos] === '?') {
        pos += 1;
        atom = ['', ...atom];
      }
      if (/[*+{]/.test(source[pos] ?? '')) return undefined;
      out = out.flatMap((head) => atom!.map((tail) => head + tail));
      if (out.length > MAX_LITERALS * 64) return undefined;
    }
    return out;
  };
  const alternatives = (): string[] | undefined => {
    const out: string[] = [];
    for (;;) {
      const branch = sequence();
      if (!branch) return undefined;
      out.push(...branch);
      if (source[pos] !== '|') return out;
      pos += 1;
    }
  };
  const all = alternatives();
  if (!all || pos !== source.length) return undefined;
  const language = new Set(all);
  const caseless = all.every((s) => language.has(s.toLowerCase()));
  const literals = [...new Set(caseless ? all.map((s) => s.toLowerCase()) : all)];
  return literals.length <= MAX_LITERALS ? literals : undefined;
}

/** The schema itself, or the shared schema a `$ref` names. */
function resolve(model: SpecModel, schema: JsonSchema): JsonSchema {
  const name = componentName(schema.$ref);
  const target = name ? model.schemas[name] : undefined;
  return isSchema(target) ? target : schema;
}

/** The literal values of each param that takes a few strings given by a pattern (`enum`s are literal already). */
function paramLiterals(model: SpecModel, method: MethodModel): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const param of method.params) {
    const schema = resolve(model, param.schema);
    if (schema.type !== 'string' || schema.enum !== undefined || typeof schema.pattern !== 'string') continue;
    const literals = patternLiterals(schema.pattern);
    if (literals) out.set(param.name, literals);
  }
  return out;
}

const union = (values: string[]) => values.map(jsString).join(' | ');

/**
 * The method's signatures: with literal params, one per value of a param that the result's top-level `if` tests
 * (`encoding: 'json'` gives `tx: PlatformTx`), one for the other values (the `else` branch), then the general one.
 * Their params are written at `indent`.
 */
export function overloads(
  model: SpecModel,
  method: MethodModel,
  paramsType: string,
  resultType: string,
  indent: string,
): Overload[] {
  const literals = paramLiterals(model, method);
  const optional = (name: string) => !method.params.find((p) => p.name === name)?.required;
  const field = (name: string, values: string[], required: boolean) =>
    `${propertyKey(name)}${required ? '' : '?'}: ${union(values)}`;
  const general: Overload = {
    params: paramsIntersection(
      indent,
      paramsType,
      [...literals].map(([name, values]) => field(name, values, !optional(name))),
    ),
    result: resultType,
  };
  const branch = method.result ? conditionalField(model, method.result.schema) : undefined;
  const values = branch ? literals.get(branch.param) : undefined;
  if (!branch || !values?.includes(branch.value)) return [general];
  const others = values.filter((v) => v !== branch.value);
  const only = (param: string, values: string[], required: boolean) =>
    paramsIntersection(indent, paramsType, [field(param, values, required)]);
  return [
    {
      params: only(branch.param, [branch.value], true),
      paramsRequired: true,
      types: [branch.then],
      result: `Omit<${resultType}, ${jsString(branch.field)}> & { ${propertyKey(branch.field)}: ${branch.then} }`,
    },
    {
      params: only(branch.param, others, !optional(branch.param)),
      types: [branch.else],
      result: `Omit<${resultType}, ${jsString(branch.field)}> & { ${propertyKey(branch.field)}: ${branch.else} }`,
    },
    general,
  ];
}

/**
 * `if: {properties: {P: {const: V}}}, then: {properties: {F: {$ref}}}, else: {properties: {F: {$ref}}}` at the top of
 * a result schema whose P echoes the param of the same name: the type of F when V was sent, and otherwise.
 */
function conditionalField(
  model: SpecModel,
  schema: JsonSchema,
): { param: string; value: string; field: string; then: string; else: string } | undefined {
  const test = isSchema(schema.if) && isSchema(schema.if.properties) ? Object.entries(schema.if.properties) : [];
  const [param, condition] = test.length === 1 ? test[0]! : [];
  if (!param || !isSchema(condition) || typeof condition.const !== 'string') return undefined;
  const fieldOf = (branch: unknown) =>
    isSchema(branch) && isSchema(branch.properties) ? Object.entries(branch.properties) : [];
  const [thenField] = fieldOf(schema.then);
  const elseField = fieldOf(schema.else).find(([name]) => name === thenField?.[0]);
  const typeOf = (s: unknown) => (isSchema(s) ? componentName(s.$ref) : undefined);
  const thenType = typeOf(thenField?.[1]);
  const elseType = typeOf(elseField?.[1]);
  if (!thenField || !thenType || !elseType) return undefined;
  return {
    param,
    value: condition.const,
    field: thenField[0],
    then: model.schemaTypeNames[thenType]!,
    else: model.schemaTypeNames[elseType]!,
  };
}
