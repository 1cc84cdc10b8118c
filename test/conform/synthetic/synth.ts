/**
 * A schema-valid answer for any request: built from the result schema with deterministic randomness seeded by the
 * request. Identifiers come out well formed (cb58 with checksum, `NodeID-`, bech32 addresses with the endpoint's chain
 * and network), and bytes (`0x` hex with checksum: transactions, blocks, UTXOs) and unions are taken from the
 * examples at the same place of the same method, so client libraries that decode them see real data.
 */
import { bech32Encode, cb58Encode, hexDecode, hexEncode } from '../../../generators/formats.ts';
import { encodeBytes } from '../../../mock/shared/formatting.ts';
import { componentName } from '../../../generators/model/schema-walk.ts';
import type { Json, JsonSchema, MethodModel, SpecModel } from '../../../generators/model/types.ts';
import { stringMatching } from './pattern.ts';
import type { Random } from './random.ts';

export interface Network {
  /** Address chain prefix, e.g. `X` or `P`. */
  chain: string;
  /** Bech32 human-readable part, e.g. `avax`. */
  hrp: string;
}

interface Pooled {
  value: Json;
  encoding: string;
}

const EPOCH = Date.UTC(2024, 5, 1) / 1000;
const isSchema = (value: Json | undefined): value is JsonSchema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The encoding an example or a request asked for, in the node's lower-case spelling (`hex` when none). */
export function encodingOf(params: Record<string, unknown>): string {
  return typeof params.encoding === 'string' ? params.encoding.toLowerCase() : 'hex';
}

export class Synthesizer {
  private readonly pools = new Map<string, Pooled[]>();

  private readonly model: SpecModel;
  private readonly method: MethodModel;
  private readonly network: Network;
  constructor(model: SpecModel, method: MethodModel, network: Network) {
    this.model = model;
    this.method = method;
    this.network = network;
    for (const example of method.examples) {
      if (method.result) this.collect(method.result.schema, example.result, '', encodingOf(example.params));
    }
  }

  private resolve(schema: JsonSchema): { schema: JsonSchema; ref?: string } {
    let current = schema;
    let ref: string | undefined;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
      ref = componentName(current.$ref);
      const target = ref ? this.model.schemas[ref] : undefined;
      if (!target) break;
      current = target;
    }
    return { schema: current, ...(ref ? { ref } : {}) };
  }

  private pool(key: string, value: Json, encoding: string): void {
    const list = this.pools.get(key) ?? [];
    if (!list.some((entry) => JSON.stringify(entry.value) === JSON.stringify(value))) list.push({ value, encoding });
    this.pools.set(key, list);
  }

  /** Files each example value under its place in the result (`/tx`, `/validators/*`) and under its schema's name. */
  private collect(schema: JsonSchema, value: Json, path: string, encoding: string): void {
    const { schema: resolved, ref } = this.resolve(schema);
    this.pool(`path:${path}`, value, encoding);
    if (ref) this.pool(`ref:${ref}`, value, encoding);
    if (Array.isArray(value) && isSchema(resolved.items)) {
      for (const item of value) this.collect(resolved.items, item, `${path}/*`, encoding);
    } else if (isSchema(value)) {
      const properties = isSchema(resolved.properties) ? resolved.properties : {};
      for (const [key, child] of Object.entries(value)) {
        const childSchema = properties[key] ?? resolved.additionalProperties;
        if (isSchema(childSchema))
          this.collect(childSchema, child, isSchema(properties[key]) ? `${path}/${key}` : `${path}/{}`, encoding);
      }
      if (!isSchema(resolved.properties)) this.pool(`keys:${path}`, Object.keys(value), encoding);
    }
  }

  /** Example values for this place, preferring those answered in the requested encoding. */
  private candidates(path: string, ref: string | undefined, encoding: string): Json[] {
    for (const key of [`path:${path}`, ...(ref ? [`ref:${ref}`] : [])]) {
      const list = this.pools.get(key);
      if (!list || list.length === 0) continue;
      const same = list.filter((entry) => entry.encoding === encoding);
      if (same.length > 0) return same.map((entry) => entry.value);
      if (encoding === 'hexnc') return list.map((entry) => withoutChecksum(entry.value));
      return list.map((entry) => entry.value);
    }
    return [];
  }

  /** An answer for `params`, or undefined when the schema has nothing to build from. */
  answer(params: Record<string, unknown>, random: Random): Json | undefined {
    if (!this.method.result) return {};
    const encoding = encodingOf(params);
    const value = this.value(this.method.result.schema, '', random, encoding, 0);
    if (isSchema(value)) {
      const { schema } = this.resolve(this.method.result.schema);
      const properties = isSchema(schema.properties) ? schema.properties : {};
      // A field named like a param answers what was asked: the encoding, the address, the subnet...
      for (const [name, given] of Object.entries(params)) {
        if (!(name in properties) || given === undefined) continue;
        value[name] = (name === 'encoding' && typeof given === 'string' ? given.toLowerCase() : given) as Json;
      }
    }
    return value;
  }

  private value(schema: JsonSchema, path: string, random: Random, encoding: string, depth: number): Json {
    const { schema: resolved, ref } = this.resolve(schema);
    const here = random.fork(path);
    const examples = this.candidates(path, ref, encoding);
    const isBytes =
      resolved.format === 'avax-hex' || (typeof resolved.pattern === 'string' && resolved.pattern.startsWith('^0x'));
    const isUnion = Array.isArray(resolved.anyOf) || Array.isArray(resolved.oneOf) || Array.isArray(resolved.allOf);
    if (examples.length > 0 && (isBytes || isUnion || depth > 6)) return structuredClone(here.pick(examples));
    if ('const' in resolved) return resolved.const as Json;
    if (Array.isArray(resolved.enum)) return here.pick(resolved.enum);
    if (isUnion) {
      const branches = [...((resolved.anyOf ?? resolved.oneOf ?? resolved.allOf) as JsonSchema[])];
      const branch = branches.find((b) => this.resolve(b).schema.type !== 'null') ?? branches[0]!;
      return this.value(branch, path, here, encoding, depth + 1);
    }
    const types = Array.isArray(resolved.type) ? resolved.type : resolved.type === undefined ? [] : [resolved.type];
    const type = (types.find((t) => t !== 'null') ?? types[0] ?? (resolved.properties ? 'object' : 'string')) as string;
    switch (type) {
      case 'object':
        return this.object(resolved, path, here, encoding, depth);
      case 'array': {
        const min = typeof resolved.minItems === 'number' ? resolved.minItems : 0;
        const max = typeof resolved.maxItems === 'number' ? resolved.maxItems : min + 3;
        const count = here.int(Math.max(min, Math.min(1, max)), Math.min(max, Math.max(min, 3)));
        const items = isSchema(resolved.items) ? resolved.items : {};
        return Array.from({ length: count }, (_, i) =>
          this.value(items, `${path}/*`, here.fork(String(i)), encoding, depth + 1),
        );
      }
      case 'integer':
      case 'number': {
        const min = typeof resolved.minimum === 'number' ? resolved.minimum : 0;
        const max =
          typeof resolved.maximum === 'number' ? Math.min(resolved.maximum, min + 1_000_000) : min + 1_000_000;
        return here.int(Math.ceil(min), Math.floor(max));
      }
      case 'boolean':
        return here.chance(0.5);
      case 'null':
        return null;
      default:
        return this.string(resolved, here, examples);
    }
  }

  private object(
    schema: JsonSchema,
    path: string,
    random: Random,
    encoding: string,
    depth: number,
  ): { [key: string]: Json } {
    const out: { [key: string]: Json } = {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    if (isSchema(schema.properties)) {
      for (const [key, child] of Object.entries(schema.properties)) {
        if (!isSchema(child) || (!required.has(key) && !random.fork(`has ${key}`).chance(0.6))) continue;
        out[key] = this.value(child, `${path}/${key}`, random, encoding, depth + 1);
      }
    } else if (isSchema(schema.additionalProperties)) {
      const keys = (this.pools.get(`keys:${path}`) ?? []).flatMap((entry) => entry.value as string[]);
      const count = random.int(1, 3);
      for (let i = 0; i < count; i++) {
        const key = isSchema(schema.propertyNames)
          ? String(this.value(schema.propertyNames, `${path}/#key`, random.fork(`key ${i}`), encoding, depth + 1))
          : keys.length > 0
            ? random.fork(`key ${i}`).pick(keys)
            : `key${i}`;
        out[key] = this.value(
          schema.additionalProperties,
          `${path}/{}`,
          random.fork(`value ${i}`),
          encoding,
          depth + 1,
        );
      }
    }
    return out;
  }

  private string(schema: JsonSchema, random: Random, examples: Json[]): string {
    switch (schema.format) {
      case 'avax-cb58':
        return cb58Encode(random.bytes(32));
      case 'avax-short-id':
        return cb58Encode(random.bytes(20));
      case 'avax-node-id':
        return `NodeID-${cb58Encode(random.bytes(20))}`;
      case 'avax-bech32':
        return bech32Encode(this.network.hrp, random.bytes(20));
      case 'avax-address':
        return `${this.network.chain}-${bech32Encode(this.network.hrp, random.bytes(20))}`;
      case 'avax-hex':
        return hexEncode(random.bytes(32));
      case 'date-time':
        return new Date((EPOCH + random.int(0, 50_000_000)) * 1000).toISOString().replace('.000Z', 'Z');
    }
    if (typeof schema.pattern === 'string') {
      const text = stringMatching(schema.pattern, random);
      if (text !== undefined) return text;
    }
    const strings = examples.filter((v): v is string => typeof v === 'string');
    if (strings.length > 0) return random.pick(strings);
    const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 16;
    return cb58Encode(random.bytes(16)).slice(0, Math.max(min, Math.min(max, 12)));
  }
}

/** A `hex` value (with checksum) as `hexnc` writes it; other values as they are. */
function withoutChecksum(value: Json): Json {
  const payload = typeof value === 'string' ? hexDecode(value) : undefined;
  return payload ? encodeBytes(payload, 'hexnc') : value;
}
