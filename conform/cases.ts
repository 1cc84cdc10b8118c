/**
 * The calls made per method: its examples (with IDs the node knows swapped in), invalid requests derived from its
 * param schemas that a conforming node must refuse (a param of the wrong JSON type, an encoding that does not exist),
 * and each required param left out. Go's decoder leaves a missing key at its zero value, so an omission is an error
 * unless the handler accepts that value: the spec marks those params with `x-zero-when-absent` (the value), and there
 * the omission must be answered exactly as the call that sends the zero value (`twin`); on a write method it is
 * not sent, since the node would perform it.
 */
import { localPointer, resolvePointer } from '../generators/common/problems.ts';
import type { Json, JsonSchema, MethodModel } from '../generators/model/types.ts';

export type CaseKind = 'example' | 'wrong-type' | 'missing-required' | 'absent-as-zero' | 'unknown-encoding';

export interface CallCase {
  name: string;
  kind: CaseKind;
  params: Record<string, Json>;
  /** For `absent-as-zero`: the same call with the zero value sent, whose answer the omission must equal. */
  twin?: Record<string, Json>;
}

/** An encoding no AvalancheGo release has had (unlike `cb58`, which old releases took). */
const UNKNOWN_ENCODING = 'base64';

export function exampleCases(
  method: MethodModel,
  substitute: (params: Record<string, Json>) => Record<string, Json>,
): CallCase[] {
  return method.examples.map((example) => ({
    name: `example "${example.name}"`,
    kind: 'example',
    params: substitute(example.params),
  }));
}

/**
 * Invalid variants of a valid call. Only variants the spec itself rejects are kept (`rejects`), so a case never
 * blames the node for refusing less than the spec does.
 */
export function invalidCases(
  schemas: Record<string, JsonSchema>,
  method: MethodModel,
  valid: Record<string, Json>,
  rejects: (params: Record<string, Json>) => boolean,
): CallCase[] {
  const cases: CallCase[] = [];
  for (const param of method.params) {
    const wrong = wrongTypeValue(schemas, param.schema);
    if (wrong !== undefined)
      cases.push({
        name: `wrong type for ${param.name} (${JSON.stringify(wrong)})`,
        kind: 'wrong-type',
        params: { ...valid, [param.name]: wrong },
      });
  }
  for (const param of method.params.filter((p) => p.required)) {
    const { [param.name]: _dropped, ...rest } = valid;
    if ('zeroWhenAbsent' in param) {
      // On a write that omission is a write of the zero value (an empty alias), which no one asked the node to keep.
      if (method.sideEffects !== 'none') continue;
      const zero = param.zeroWhenAbsent as Json;
      cases.push({
        name: `without required ${param.name} (answered as ${JSON.stringify(zero)})`,
        kind: 'absent-as-zero',
        params: rest,
        twin: { ...rest, [param.name]: zero },
      });
    } else cases.push({ name: `without required ${param.name}`, kind: 'missing-required', params: rest });
  }
  if (method.params.some((p) => p.name === 'encoding')) {
    cases.push({
      name: `unknown encoding "${UNKNOWN_ENCODING}"`,
      kind: 'unknown-encoding',
      params: { ...valid, encoding: UNKNOWN_ENCODING },
    });
  }
  return cases.filter((c) => rejects(c.params));
}

type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/**
 * A value of a JSON type the schema does not accept, or undefined when it accepts any type. Its `$ref`s point into
 * the shared schemas (`SpecModel.schemas`).
 */
export function wrongTypeValue(schemas: Record<string, JsonSchema>, schema: JsonSchema): Json | undefined {
  const accepted = acceptedTypes({ components: { schemas } }, schema, new Set());
  if (accepted === 'any') return undefined;
  // `null` is never used: Go's decoder treats it as "absent" rather than as a wrong type.
  const candidates: Array<[JsonType, Json]> = [
    ['boolean', true],
    ['string', 'wrong-type'],
    ['number', 12345],
    ['object', {}],
    ['array', []],
  ];
  return candidates.find(([type]) => !accepted.has(type))?.[1];
}

function acceptedTypes(document: Json, schema: Json | undefined, seen: Set<string>): Set<JsonType> | 'any' {
  if (schema === true || schema === undefined || schema === null || typeof schema !== 'object' || Array.isArray(schema))
    return 'any';
  const ref = typeof schema.$ref === 'string' ? schema.$ref : '';
  const pointer = localPointer(ref);
  if (pointer !== undefined) {
    if (seen.has(ref)) return 'any';
    return acceptedTypes(document, resolvePointer(document, pointer).value as Json, new Set([...seen, ref]));
  }
  if ('const' in schema) return new Set([typeOf(schema.const as Json)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(typeOf));
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    return new Set(types.map((t) => (t === 'integer' ? 'number' : (t as JsonType))));
  }
  const branches = (
    Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined
  ) as Json[] | undefined;
  if (branches) {
    const union = new Set<JsonType>();
    for (const branch of branches) {
      const types = acceptedTypes(document, branch, seen);
      if (types === 'any') return 'any';
      for (const t of types) union.add(t);
    }
    return union;
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf as Json[]) {
      const types = acceptedTypes(document, part, seen);
      if (types !== 'any') return types;
    }
  }
  return 'any';
}

function typeOf(value: Json): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonType;
}
