/**
 * Secrets out of everything the proxy writes: the spec marks them `x-sensitive: true` (passwords, exported users), and
 * each marked param or result field is written as "<redacted>" in transcripts. Keys are matched case-insensitively,
 * as the node decodes them. A body that is not JSON cannot be walked: there every
 * string after a sensitive key's name is blanked.
 */
import { type Path, fold, sensitivePaths } from '../generators/model/sensitive.ts';
import type { JsonSchema, SpecModel } from '../generators/model/types.ts';

export const REDACTED = '<redacted>';

interface MethodSecrets {
  params: Path[];
  result: Path[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export class Redactor {
  private readonly methods = new Map<string, MethodSecrets>();
  private readonly names = new Set<string>();
  private readonly textPattern: RegExp | undefined;

  constructor(model: SpecModel) {
    const paths = (schema: JsonSchema, prefix: Path) => sensitivePaths(schema, model.schemas, prefix, new Set());
    for (const method of model.endpoints.flatMap((endpoint) => endpoint.methods)) {
      const params = method.params.flatMap((param) => paths(param.schema, [fold(param.name)]));
      const result = method.result ? paths(method.result.schema, []) : [];
      if (params.length + result.length > 0) this.methods.set(method.name, { params, result });
      for (const path of [...params, ...result])
        if (path.length > 0 && path.at(-1) !== '*') this.names.add(path.at(-1)!);
    }
    const names = [...this.names].map((name) => name.replace(/[^A-Za-z0-9]/g, (c) => `\\${c}`));
    // `"password" : "..."` in a body that did not parse: the string after the key, escapes included.
    if (names.length > 0)
      this.textPattern = new RegExp(`("(?:${names.join('|')})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"?`, 'gi');
  }

  /** Whether a method has anything to hide. */
  has(method: string | undefined): boolean {
    return method !== undefined && this.methods.has(method);
  }

  /** A copy of a parsed request with the method's secret params replaced (`params` by name, or `[ {...} ]`). */
  request(method: string | undefined, body: unknown): unknown {
    const secrets = method === undefined ? undefined : this.methods.get(method);
    if (!secrets || !isObject(body) || body.params === null || typeof body.params !== 'object') return body;
    const params = Array.isArray(body.params)
      ? body.params.map((item) => replaced(item, secrets.params))
      : replaced(body.params, secrets.params);
    return { ...body, params };
  }

  /** A copy of a parsed answer with the method's secret result fields replaced. */
  response(method: string | undefined, body: unknown): unknown {
    const secrets = method === undefined ? undefined : this.methods.get(method);
    if (!secrets || !isObject(body) || !('result' in body)) return body;
    return { ...body, result: replaced(body.result, secrets.result) };
  }

  /** Text that did not parse as JSON, with the string after any sensitive key blanked. */
  text(text: string): string {
    return this.textPattern ? text.replace(this.textPattern, `$1"${REDACTED}"`) : text;
  }
}

/** A copy of `value` with every path's value replaced; the original is left as it is. */
function replaced(value: unknown, paths: Path[]): unknown {
  if (paths.some((path) => path.length === 0)) return value === undefined ? value : REDACTED;
  if (Array.isArray(value)) {
    const items = paths.filter((path) => path[0] === '*').map((path) => path.slice(1));
    return items.length === 0 ? value : value.map((item) => replaced(item, items));
  }
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const key of Object.keys(copy)) {
    const below = paths.filter((path) => path[0] === fold(key)).map((path) => path.slice(1));
    if (below.length > 0) copy[key] = replaced(copy[key], below);
  }
  return copy;
}
