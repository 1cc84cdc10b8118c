/**
 * Result writers compiled from the result schemas, as fast-json-stringify does for Fastify: for a value of the shape
 * its schema describes, the writer builds the JSON text without JSON.stringify's generic walk. Each writer follows the
 * value's own key order and returns the exact text goStringify would (JSON.stringify's output with Go's HTML
 * escaping), or undefined wherever the value leaves the schema's shape or could write differently (a string needing
 * escapes, a key the schema does not name, an object that is not plain), and the runtime then writes the whole value
 * with goStringify. So a writer can only make an answer faster, never different.
 */
import type * as encode from '../../runtime/server/encode.ts';
import { validatorNames } from '../model/names.ts';
import { componentName } from '../model/schema-walk.ts';
import type { JsonSchema, MethodModel } from '../model/types.ts';

/** What each writer's code calls: the runtime's string and any-value writers (runtime/server/encode.ts). */
export const WRITER_HELPERS = ['writeString', 'writeScalar'] as const satisfies ReadonlyArray<keyof typeof encode>;

const GENERIC: (typeof WRITER_HELPERS)[number] = 'writeScalar';

class WriterCompiler {
  private readonly functions: string[] = [];
  private readonly components = new Map<string, string>();
  /** Function names by body: schemas of the same shape share one function. */
  private readonly bodies = new Map<string, string>();
  /** Constants holding each property name as written, `"name":`, by the runtime's writeString when the module loads. */
  private readonly keys = new Map<string, string>();

  constructor(private readonly schemas: Record<string, JsonSchema>) {}

  /** The name of a function writing values of `schema`. */
  writer(schema: JsonSchema | boolean | undefined): string {
    if (typeof schema !== 'object' || schema === null) return GENERIC;
    const component = componentName(schema.$ref);
    if (component) return this.component(component);
    if (['$ref', 'oneOf', 'anyOf', 'allOf', 'not', 'if'].some((keyword) => keyword in schema)) return GENERIC;
    if (Array.isArray(schema.type)) {
      // Each type's writer turns down values of other types, so the first that writes a value writes it right.
      const writers = (schema.type as string[]).map((type) => this.writer({ ...schema, type }));
      if (writers.includes(GENERIC)) return GENERIC;
      return this.add(
        'v',
        `let s;\n  ${writers.map((w) => `if ((s = ${w}(v)) !== undefined) return s;`).join('\n  ')}\n  return undefined;`,
      );
    }
    switch (schema.type) {
      case 'string':
        return this.add('v', `return typeof v === 'string' ? writeString(v) : undefined;`);
      case 'integer':
      case 'number':
        // Number's own text is JSON.stringify's; the non-finite ones it writes as null.
        return this.add('v', `return typeof v === 'number' ? (Number.isFinite(v) ? '' + v : 'null') : undefined;`);
      case 'boolean':
        return this.add('v', `return v === true ? 'true' : v === false ? 'false' : undefined;`);
      case 'null':
        return this.add('v', `return v === null ? 'null' : undefined;`);
      case 'array':
        return this.array(schema);
      case 'object':
        return this.object(schema);
      default:
        return GENERIC;
    }
  }

  code(): string {
    return this.functions.join('\n');
  }

  private component(name: string): string {
    let fn = this.components.get(name);
    if (!fn) {
      // Named before compiling, so a schema that refers to itself calls its own function.
      fn = `c_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
      this.components.set(name, fn);
      const schema = this.schemas[name];
      this.functions.push(`function ${fn}(v) { return ${schema ? this.writer(schema) : GENERIC}(v); }`);
    }
    return fn;
  }

  private key(name: string): string {
    let constant = this.keys.get(name);
    if (!constant) {
      constant = `k${this.keys.size}`;
      this.keys.set(name, constant);
      this.functions.push(`const ${constant} = writeString(${JSON.stringify(name)}) + ':';`);
    }
    return constant;
  }

  private add(param: string, body: string): string {
    let name = this.bodies.get(body);
    if (!name) {
      name = `f${this.bodies.size}`;
      this.bodies.set(body, name);
      this.functions.push(`function ${name}(${param}) {\n  ${body}\n}`);
    }
    return name;
  }

  private array(schema: JsonSchema): string {
    const item = Array.isArray(schema.items) ? GENERIC : this.writer(schema.items as JsonSchema | undefined);
    // JSON.stringify writes a missing or undefined item as null.
    return this.add(
      'v',
      `if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype) return undefined;
  let out = '[';
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    const s = x === undefined ? 'null' : ${item}(x);
    if (s === undefined) return undefined;
    out += i === 0 ? s : ',' + s;
  }
  return out + ']';`,
    );
  }

  private object(schema: JsonSchema): string {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
    const cases = properties.map(
      ([key, child]) => `case ${JSON.stringify(key)}: key = ${this.key(key)}; s = ${this.writer(child)}(x); break;`,
    );
    const extra = schema.additionalProperties;
    // Keys the schema does not name are written only where the schema allows them, and only own ones (for-in also
    // lists inherited keys, JSON.stringify does not); `toJSON` would be called, not written.
    const otherwise =
      extra === false || 'patternProperties' in schema
        ? 'return undefined;'
        : `if (k === 'toJSON' || !Object.hasOwn(v, k)) return undefined; key = writeString(k) + ':'; s = ${this.writer(extra as JsonSchema | undefined)}(x);`;
    return this.add(
      'v',
      `if (typeof v !== 'object' || v === null) return undefined;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return undefined;
  let out = '{';
  for (const k in v) {
    const x = v[k];
    if (x === undefined) continue;
    let key;
    let s;
    switch (k) {
      ${[...cases, `default: ${otherwise}`].join('\n      ')}
    }
    if (s === undefined) return undefined;
    out += out.length === 1 ? key + s : ',' + key + s;
  }
  return out + '}';`,
    );
  }
}

/** The writers of one endpoint's results, named by validatorNames, as JavaScript (functions and their exports). */
export function writersCode(
  methods: Array<Pick<MethodModel, 'name' | 'result'>>,
  schemas: Record<string, JsonSchema>,
): { code: string; names: string[] } {
  const compiler = new WriterCompiler(schemas);
  const names = methods.map((method) => validatorNames(method.name).writer);
  const exports = methods.map((method, i) => `export const ${names[i]} = ${compiler.writer(method.result?.schema)};`);
  return { code: `${compiler.code()}\n${exports.join('\n')}`, names };
}
