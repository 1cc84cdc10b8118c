/**
 * JSON text as Go's encoding/json writes it, for the node's `encoding: "json"` answers: 64-bit integers (amounts,
 * times) are bare numbers that JSON.stringify cannot write without losing digits past 2^53, so values are written
 * here, bigint included, with Go's escaping of strings (`<`, `>`, `&`, U+2028, U+2029; \b and \f as \u00XX).
 */

/** A JSON value as Go would marshal it; members are written in insertion order (struct field order). */
export type GoJson = string | number | bigint | boolean | null | readonly GoJson[] | { readonly [key: string]: GoJson };

const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
  '\\b': '\\u0008',
  '\\f': '\\u000c',
};

function writeString(text: string): string {
  return JSON.stringify(text).replace(/[<>&\u2028\u2029]|\\[bf]/g, (c) => GO_ESCAPES[c] ?? c);
}

export function writeGoJson(value: GoJson): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return writeString(value);
    case 'bigint':
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`json: unsupported value: ${value}`);
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (Array.isArray(value)) return `[${value.map(writeGoJson).join(',')}]`;
  const members = Object.entries(value as Record<string, GoJson>).map(
    ([k, v]) => `${writeString(k)}:${writeGoJson(v)}`,
  );
  return `{${members.join(',')}}`;
}

/** A Go map's members: encoding/json writes them sorted by key. */
export function goMap(entries: Record<string, GoJson>): Record<string, GoJson> {
  return Object.fromEntries(
    Object.keys(entries)
      .sort()
      .map((key) => [key, entries[key]!]),
  );
}
