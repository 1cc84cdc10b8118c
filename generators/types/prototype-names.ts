/**
 * json-schema-to-typescript walks schemas as plain objects and calls their own methods (`schema.hasOwnProperty(...)`),
 * so a property named `hasOwnProperty`, `constructor` or `__proto__` breaks it. Such names are handed to it as
 * placeholders, and put back into the declarations it returns.
 */
import { randomUUID } from 'node:crypto';
import { mapSubschemas } from '../model/schema-walk.ts';
import type { Json, JsonSchema } from '../model/types.ts';
import type { NamedType } from './schemas.ts';

const PROTOTYPE_NAMES = new Set(['__proto__', ...Object.getOwnPropertyNames(Object.prototype)]);

export interface HiddenNames {
  types: NamedType[];
  /** The declarations with each placeholder back to its name (every such name is an identifier, so it goes bare). */
  restore: (declarations: string) => string;
}

export function hidePrototypeNames(types: NamedType[]): HiddenNames {
  // A placeholder no spec text can hold by chance: the nonce is new every run, and the output never shows it.
  const prefix = `protoName${randomUUID().replaceAll('-', '')}_`;
  const names: string[] = [];
  const placeholder = (name: string) => {
    if (!PROTOTYPE_NAMES.has(name)) return name;
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `${prefix}${index}`;
  };
  const hide = (schema: JsonSchema): JsonSchema => {
    const copy = mapSubschemas(schema, hide);
    const properties = copy.properties;
    if (properties && typeof properties === 'object' && !Array.isArray(properties))
      copy.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [placeholder(key), value]));
    if (Array.isArray(copy.required))
      copy.required = copy.required.map((key: Json) => (typeof key === 'string' ? placeholder(key) : key));
    return copy;
  };
  const hidden = types.map((type) => ({ ...type, schema: hide(type.schema) }));
  if (names.length === 0) return { types, restore: (declarations) => declarations };
  const pattern = new RegExp(`${prefix}(\\d+)`, 'g');
  return { types: hidden, restore: (declarations) => declarations.replace(pattern, (_, i) => names[Number(i)]!) };
}
