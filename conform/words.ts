/**
 * ajv's errors as one violation per offending value, in words. ajv reports every failed branch of an `anyOf` and
 * both the pattern and the format of a string, so one bad address gave four lines of regexes; here the errors at one
 * JSON pointer become one line: a wrong type first (with the allowed constants after it), else what the value is not
 * (a format in words), else the pattern, else the remaining rule. Values are never quoted, only their JSON type, so a
 * secret cannot reach a log line through a message.
 */
import type { ErrorObject } from 'ajv';
// ajv's errors in the generated servers' wording, so every report reads alike.
import { errorMessage } from '../runtime/server/params.ts';
import type { Violation } from './validate.ts';
import { resolvePointer } from '../generators/common/problems.ts';

const FORMAT_WORDS: Record<string, string> = {
  'avax-address': 'a chain-prefixed bech32 address with a valid checksum (e.g. "X-avax1...")',
  'avax-bech32': 'a bech32 address of 20 bytes with a valid checksum',
  'avax-cb58': 'a cb58 ID (32 bytes and a checksum)',
  'avax-short-id': 'a cb58 short ID (20 bytes and a checksum)',
  'avax-node-id': 'a node ID ("NodeID-" and the cb58 of 20 bytes)',
  'avax-hex': '0x-prefixed hex with a 4-byte checksum',
  'date-time': 'an RFC 3339 date-time',
};
const SUMMARIES = new Set(['anyOf', 'oneOf', 'if', 'allOf', 'errorLimit']);

/** The JSON type of a value, as a message names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const list = (items: string[]) => [...new Set(items)].join(' or ');

/** One violation per JSON pointer that has errors; `root` is the value the errors' instancePaths point into. */
export function violationsInWords(prefix: string, errors: ErrorObject[], root: unknown): Violation[] {
  const byPointer = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const group = byPointer.get(error.instancePath);
    if (group) group.push(error);
    else byPointer.set(error.instancePath, [error]);
  }
  const pointers = [...byPointer.keys()];
  const out: Violation[] = [];
  for (const [pointer, group] of byPointer) {
    const say = (rule: string, message: string) => out.push({ pointer: prefix + pointer, rule, message });
    const leaves = group.filter((e) => !SUMMARIES.has(e.keyword));
    if (leaves.length === 0) {
      // Only "no branch matched": say so unless a deeper value explains why.
      if (pointers.some((p) => p.startsWith(`${pointer}/`))) continue;
      const limit = group.find((e) => e.keyword === 'errorLimit');
      say(group[0]!.keyword, limit ? errorMessage(limit) : 'matches none of the allowed forms');
      continue;
    }
    const of = (keyword: string) => leaves.filter((e) => e.keyword === keyword);
    const types = of('type');
    const formats = of('format');
    const patterns = of('pattern');
    const constants = [
      ...of('const').map((e) => JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)),
      ...of('enum').flatMap((e) =>
        ((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)),
      ),
    ];
    const other = leaves.filter((e) => !['type', 'format', 'pattern', 'const', 'enum'].includes(e.keyword));
    const actual = jsonType(resolvePointer(root, pointer).value);
    const typeMatched = types.length > 0 && leaves.length > types.length + constants.length;
    if (types.length > 0 && !typeMatched) {
      const allowed = list(types.flatMap((e) => String((e.params as { type: string }).type).split(',')));
      const detail = constants.length > 0 ? ` (or ${list(constants)})` : '';
      say('type', `must be ${allowed}${detail}, not ${actual}`);
    } else if (formats.length > 0) {
      const names = formats.map((e) => (e.params as { format: string }).format);
      say('format', `not ${list(names.map((name) => FORMAT_WORDS[name] ?? `format "${name}"`))}`);
    } else if (patterns.length > 0) {
      const forms = patterns.map((e) => String((e.params as { pattern: string }).pattern));
      say('pattern', `does not have the allowed form (${list(forms)})`);
    } else if (other.length > 0) {
      for (const error of other) say(error.keyword, errorMessage(error));
    } else say(constants.length > 1 ? 'enum' : 'const', `must be ${list(constants)}`);
  }
  return out;
}
