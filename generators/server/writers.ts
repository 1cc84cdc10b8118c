/**
 * Result writers compiled from the result schemas, as fast-json-stringify does for Fastify: for a value of the shape
 * its schema describes, the writer builds the JSON text without JSON.stringify's generic walk. Each writer follows the
 * value's own key order and returns the exact text goStringify would (JSON.stringify's output with Go's HTML
 * escaping), or undefined wherever the value leaves the schema's shape or could write differently (a string needing
 * escapes, a key the schema does not name, an object that is not plain), and the runtime then writes the whole value
 * with goStringify. So a writer can only make an answer faster, never different.
 */
import type * as encode from '../../runtime/server/encode.ts';
import { pascalCase, validatorNames } from '../model/names.ts';
import { componentName } from '../model/schema-walk.ts';
import type { JsonSchema, MethodModel } from '../model/types.ts';
import { WIDTH } from '../shared/lines.ts';

/** What each writer's code calls: the runtime's string and any-value writers (runtime/server/encode.ts). */
export const WRITER_HELPERS = ['writeString', 'writeScalar'] as const satisfies ReadonlyArray<keyof typeof encode>;

const GENERIC: (typeof WRITER_HELPERS)[number] = 'writeScalar';

/** The JavaScript or the TypeScript of the same writers: TypeScript gets its types, JavaScript none. */
interface Syntax {
  /** A writer's parameter and return type. */
  signature: string;
  /** The types of the locals an object writer fills in its switch. */
  key: string;
  text: string;
}
const JAVASCRIPT: Syntax = { signature: '(v)', key: '', text: '' };
const TYPESCRIPT: Syntax = { signature: '(v: any): string | undefined', key: ': string', text: ': string | undefined' };

/** Names the writers by what they write, e.g. `stringJson`, `outputOwnersJson`, `platformGetBalanceResultJson`. */
const camel = (text: string): string => {
  const pascal = pascalCase(text) || 'Value';
  return pascal[0]!.toLowerCase() + pascal.slice(1);
};

class WriterCompiler {
  private readonly functions: string[] = [];
  private readonly components = new Map<string, string>();
  /** Function names by body: schemas of the same shape share one function. */
  private readonly bodies = new Map<string, string>();
  /** Constants holding each property name as written, `"name":`, by the runtime's writeString when the module loads. */
  private readonly keys = new Map<string, string>();
  private readonly names = new Set<string>();

  private readonly schemas: Record<string, JsonSchema>;
  private readonly syntax: Syntax;
  constructor(schemas: Record<string, JsonSchema>, syntax: Syntax) {
    this.schemas = schemas;
    this.syntax = syntax;
  }

  /** The name of a function writing values of `schema`; `hint` says what the value is, for naming its writer. */
  writer(schema: JsonSchema | boolean | undefined, hint: string): string {
    if (typeof schema !== 'object' || schema === null) return GENERIC;
    const component = componentName(schema.$ref);
    if (component) return this.component(component);
    if (['$ref', 'oneOf', 'anyOf', 'allOf', 'not', 'if'].some((keyword) => keyword in schema)) return GENERIC;
    if (Array.isArray(schema.type)) {
      // Each type's writer turns down values of other types, so the first that writes a value writes it right.
      const types = schema.type as string[];
      const writers = types.map((type) => this.writer({ ...schema, type }, hint));
      if (writers.includes(GENERIC)) return GENERIC;
      const simple = types.every((type) => PRIMITIVES.has(type));
      return this.add(
        simple ? types.join(' or ') : hint,
        `let s${this.syntax.text};\n  ${writers.map((w) => `if ((s = ${w}(v)) !== undefined) return s;`).join('\n  ')}
  return undefined;`,
      );
    }
    switch (schema.type) {
      case 'string':
        return this.add('string', `return typeof v === 'string' ? writeString(v) : undefined;`);
      case 'integer':
      case 'number':
        // Number's own text is JSON.stringify's; the non-finite ones it writes as null.
        return this.add('number', `return typeof v === 'number' ? (Number.isFinite(v) ? '' + v : 'null') : undefined;`);
      case 'boolean':
        return this.add('boolean', `return v === true ? 'true' : v === false ? 'false' : undefined;`);
      case 'null':
        return this.add('null', `return v === null ? 'null' : undefined;`);
      case 'array':
        return this.array(schema, hint);
      case 'object':
        return this.object(schema, hint);
      default:
        return GENERIC;
    }
  }

  code(): string {
    return this.functions.join('\n');
  }

  private unique(name: string): string {
    let unique = name;
    for (let n = 2; this.names.has(unique); n++) unique = `${name}${n}`;
    this.names.add(unique);
    return unique;
  }

  private component(name: string): string {
    let fn = this.components.get(name);
    if (!fn) {
      // Named before compiling, so a schema that refers to itself calls its own function.
      fn = this.unique(`${camel(name)}Json`);
      this.components.set(name, fn);
      const schema = this.schemas[name];
      const inner = schema ? this.writer(schema, `${name} fields`) : GENERIC;
      const line = `function ${fn}${this.syntax.signature} { return ${inner}(v); }`;
      this.functions.push(
        line.length <= WIDTH ? line : `function ${fn}${this.syntax.signature} {\n  return ${inner}(v);\n}`,
      );
    }
    return fn;
  }

  private key(name: string): string {
    let constant = this.keys.get(name);
    if (!constant) {
      constant = this.unique(`${camel(name)}Key`);
      this.keys.set(name, constant);
      this.functions.push(`const ${constant} = writeString(${JSON.stringify(name)}) + ':';`);
    }
    return constant;
  }

  /** The function with this body, named after `what` it writes the first time the body is seen. */
  private add(what: string, body: string): string {
    let name = this.bodies.get(body);
    if (!name) {
      name = this.unique(`${camel(lastWords(what))}Json`);
      this.bodies.set(body, name);
      this.functions.push(`function ${name}${this.syntax.signature} {\n  ${body}\n}`);
    }
    return name;
  }

  private array(schema: JsonSchema, hint: string): string {
    const item = Array.isArray(schema.items)
      ? GENERIC
      : this.writer(schema.items as JsonSchema | undefined, `${hint} item`);
    const itemName = item === GENERIC ? 'any' : item.replace(/Json$/, '');
    // JSON.stringify writes a missing or undefined item as null.
    return this.add(
      `${itemName} list`,
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

  private object(schema: JsonSchema, hint: string): string {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
    const cases = properties.map(([key, child]) => {
      const line = `case ${JSON.stringify(key)}: key = ${this.key(key)}; s = ${this.writer(child, `${hint} ${key}`)}(x); break;`;
      // Within 120 columns at the switch's indent: a long writer's name gets lines of its own.
      if (line.length <= 112) return line;
      const [head, call] = [line.slice(0, line.indexOf(' s = ')), line.slice(line.indexOf(' s = ') + 1)];
      return `${head}\n        ${call.replace(' break;', '\n        break;')}`;
    });
    const extra = schema.additionalProperties;
    // Keys the schema does not name are written only where the schema allows them, and only own ones (for-in also
    // lists inherited keys, JSON.stringify does not); `toJSON` would be called, not written.
    const otherwise =
      extra === false || 'patternProperties' in schema
        ? ' return undefined;'
        : [
            "\n        if (k === 'toJSON' || !Object.hasOwn(v, k)) return undefined;",
            "key = writeString(k) + ':';",
            `s = ${this.writer(extra as JsonSchema | undefined, `${hint} value`)}(x);`,
          ].join('\n        ');
    return this.add(
      hint,
      `if (typeof v !== 'object' || v === null) return undefined;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return undefined;
  let out = '{';
  for (const k in v) {
    const x = v[k];
    if (x === undefined) continue;
    let key${this.syntax.key};
    let s${this.syntax.text};
    switch (k) {
      ${[...cases, `default:${otherwise}`].join('\n      ')}
    }
    if (s === undefined) return undefined;
    out += out.length === 1 ? key + s : ',' + key + s;
  }
  return out + '}';`,
    );
  }
}

/**
 * The last words of a writer's hint, enough to say what it writes: a hint grows a word a level, and a deep result's
 * whole path (Celestia's `state.QueryRedelegations` result … entries item redelegation_entry) would name a writer
 * wider than a line; `unique` keeps the shortened names apart.
 */
function lastWords(what: string): string {
  const words = what.split(' ');
  while (words.length > 1 && camel(words.join(' ')).length > MAX_NAME) words.shift();
  return words.join(' ');
}
const MAX_NAME = 72;

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean', 'null']);

/**
 * The writers of one endpoint's results, exported under validatorNames' names, as JavaScript (`code`) and as
 * TypeScript (`typedCode`): the same functions, with types in the latter.
 */
export function writersCode(
  methods: Array<Pick<MethodModel, 'name' | 'result'>>,
  schemas: Record<string, JsonSchema>,
): { code: string; typedCode: string; names: string[] } {
  const names = methods.map((method) => validatorNames(method.name).writer);
  const render = (syntax: Syntax) => {
    const compiler = new WriterCompiler(schemas, syntax);
    const exports = methods.map((method, i) => {
      const hint = names[i]!.replace(/^write/, '');
      const head = `export const ${names[i]} =`;
      const writer = `${compiler.writer(method.result?.schema, hint)};`;
      return head.length + 1 + writer.length <= WIDTH ? `${head} ${writer}` : `${head}\n  ${writer}`;
    });
    return `${compiler.code()}\n${exports.join('\n')}`;
  };
  return { code: render(JAVASCRIPT), typedCode: render(TYPESCRIPT), names };
}
