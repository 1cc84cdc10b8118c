/**
 * How the bundle names a component it copies in: an entry of `components` keeps its name; a schema reached by any
 * other path takes the path's names.
 */
import { COMPONENT_KINDS, type ComponentKind, isKind } from './roles.ts';

export interface ComponentTarget {
  name: string;
  kind: ComponentKind;
}

/**
 * A components entry named by its pointer: `#/components/<kind>/<Name>` in any document, or `#/<kind>/<Name>` in a
 * components file (a file shaped like OpenRPC's `components` object).
 */
export function namedEntry(tokens: string[], inOtherFile: boolean): ComponentTarget | undefined {
  if (tokens.length === 3 && tokens[0] === 'components' && isKind(tokens[1]))
    return { kind: tokens[1], name: tokens[2]! };
  if (inOtherFile && tokens.length === 2 && isKind(tokens[0])) return { kind: tokens[0], name: tokens[1]! };
  return undefined;
}

/** Keywords that only hold schemas by name or position; the path's other tokens name the schema. */
const CONTAINERS = new Set(['components', ...COMPONENT_KINDS, 'properties', 'definitions', '$defs']);

/** The name of a schema reached by a path (`Payload/properties/fee` -> `Payload_fee`); none for an empty path. */
export function pathName(tokens: string[]): string | undefined {
  const named = tokens.filter((token) => !CONTAINERS.has(token));
  return named.length > 0 ? named.join('_') : tokens.at(-1);
}
