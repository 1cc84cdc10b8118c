/**
 * The request envelope as json2 decodes it into its serverRequest: jsonrpc, method, params and id, fields matched
 * case-insensitively, type errors kept (the first one) while the other fields still fill, `id` kept as the raw bytes
 * to echo. Plain requests (UTF-8 without escapes, the four fields spelled as usual) take the native JSON.parse;
 * everything else goes through the Go-compatible reader, which alone knows Go's error messages.
 */
import { compactBytes, compactRaw, goStringify } from './encode.ts';
import { GoSyntaxError, type ParsedValue, parseRequest } from './json.ts';
import { foldKey } from './params.ts';

export interface ServerRequest {
  version: string;
  method: string;
  /**
   * The params value (a RawValue from the Go-compatible reader, decoded once the method is known, as json2 keeps a
   * json.RawMessage); absent when none or null was sent.
   */
  params?: unknown;
  /**
   * The params as written, compacted, which only the Go reader keeps (error data echoes them); elsewhere the value
   * written back stands for them.
   */
  rawParams?: () => string | Uint8Array;
  /**
   * The params again with every integer beyond 2^53 as its digits, present only when there is one: Go reads such a
   * number exactly, where the params above hold the nearest double.
   */
  exactParams?: () => unknown;
  /** The id to echo, compacted; absent for a notification. */
  id?: string | Uint8Array;
  typeError?: string;
}

const FIELDS: Record<string, 'jsonrpc' | 'method' | 'params' | 'id'> = {
  JSONRPC: 'jsonrpc',
  METHOD: 'method',
  PARAMS: 'params',
  ID: 'id',
};
// ignoreBOM keeps a leading byte-order mark in the text, where Go's decoder sees it and refuses the body.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
/** Below Go's nesting limit whatever the content: 10000 levels take more bytes than this. */
const FAST_MAX_BYTES = 16384;

function kindOf(value: unknown): string {
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function readNodeRequest(body: Uint8Array): ServerRequest {
  return fastRequest(body) ?? slowRequest(body);
}

/** The native parse, taken only where its answer is certain to equal Go's; undefined hands over to the Go reader. */
function fastRequest(body: Uint8Array): ServerRequest | undefined {
  if (body.length > FAST_MAX_BYTES) return undefined;
  const text = utf8.decode(body);
  // Escapes and bytes that are not UTF-8 (shown as U+FFFD) are where Go and JSON.parse can differ.
  if (text.indexOf('\\') >= 0 || text.indexOf('\ufffd') >= 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  // A key written twice is one member to JSON.parse, where Go's decoder folds each writing into its field in turn.
  if (membersWritten(text) !== membersOf(value)) return undefined;
  const envelope = value as Record<string, unknown>;
  for (const key in envelope)
    if (key !== 'jsonrpc' && key !== 'method' && key !== 'params' && key !== 'id') return undefined;
  const { jsonrpc, method, params, id } = envelope;
  if (jsonrpc !== '2.0' || typeof method !== 'string') return undefined;
  let idText: string | undefined;
  if (typeof id === 'string') idText = goStringify(id);
  else if (typeof id === 'number') {
    idText = writtenId(text, id);
    if (idText === undefined) return undefined;
  } else if (id !== undefined && id !== null) return undefined;
  // JSON.parse reads `1e2`, `1.0` and 2^64 as integers Go's decoder refuses in params, and rounds integers beyond 2^53
  // that Go reads exactly: the Go reader tells the first apart and keeps the digits of the others.
  if (hasNumber(params) && hasRefusableNumber(text)) return undefined;
  const request: ServerRequest = { version: jsonrpc, method };
  if (params !== undefined && params !== null) request.params = params;
  if (idText !== undefined) request.id = idText;
  return request;
}

/**
 * A number id as written, which Go echoes: found only where the text's one `"id"` is the member holding it, written
 * as String(id) writes the value read (so it reads back the same); otherwise undefined. A scan rather than a regular
 * expression, which cost a quarter of this path on every call.
 */
function writtenId(text: string, id: number): string | undefined {
  const key = idKey(text, 0);
  if (key < 0 || idKey(text, key + 4) >= 0) return undefined;
  let at = skipSpace(text, key + 4);
  if (text.charCodeAt(at) !== 0x3a) return undefined;
  at = skipSpace(text, at + 1);
  const written = String(id);
  if (!text.startsWith(written, at)) return undefined;
  const next = text.charCodeAt(skipSpace(text, at + written.length));
  return next === 0x2c || next === 0x7d ? written : undefined;
}

/**
 * The index of the next `"id"` from `from`, or -1. Looked for by its `id"`: a quote opens every string of the text, so
 * a search led by the quote stops at each of them, and cost the most of this path.
 */
function idKey(text: string, from: number): number {
  for (let at = text.indexOf('id"', from + 1); at >= 0; at = text.indexOf('id"', at + 3))
    if (text.charCodeAt(at - 1) === 0x22) return at - 1;
  return -1;
}

/**
 * The members the text writes: in JSON without escapes a quote followed by a colon ends a key and nothing else (a
 * string cannot hold a quote). A key spaced from its colon is not counted, which only hands the text to the Go reader.
 */
function membersWritten(text: string): number {
  let count = 0;
  for (let at = text.indexOf('":'); at >= 0; at = text.indexOf('":', at + 2)) count++;
  return count;
}

/** The members of every object in `value`, walked from a list: no depth overflows the stack. */
function membersOf(value: object): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    for (const key in next) {
      count++;
      const child = (next as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) pending.push(child);
    }
  }
  return count;
}

/** The index of the first character from `at` that is not JSON whitespace. */
function skipSpace(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return at;
    at++;
  }
}

/** Whether a number is anywhere in `value`; nested values are walked from a list: no depth overflows the stack. */
function hasNumber(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return typeof value === 'number';
  // Params are mostly one object of strings: its members are looked at without making the list.
  let pending: unknown[] | undefined;
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'number') return true;
    if (typeof child === 'object' && child !== null) (pending ??= []).push(child);
  }
  while (pending !== undefined && pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'number') return true;
    if (typeof next === 'object' && next !== null)
      for (const key in next) pending.push((next as Record<string, unknown>)[key]);
  }
  return false;
}

/**
 * Whether the text (JSON without escapes) has a number literal, outside strings, with a fraction, an exponent, a
 * negative zero or 16 digits (perhaps beyond 2^53). Strings are skipped whole: addresses and IDs are full of digits
 * followed by an `e`, and taking them for exponents sent every call with a number in its params (`limit`) down the
 * Go reader.
 */
function hasRefusableNumber(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = text.indexOf('"', i + 1);
      if (i < 0) return true;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      let digits = 0;
      for (; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d >= 0x30 && d <= 0x39) digits++;
        else if (d === 0x2e || d === 0x65 || d === 0x45) return true;
        else if (d !== 0x2d && d !== 0x2b) break;
      }
      if (digits >= 16 || (c === 0x2d && text.charCodeAt(start + 1) === 0x30)) return true;
      i--;
    }
  }
  return false;
}

function slowRequest(body: Uint8Array): ServerRequest {
  try {
    return fromParsed(parseRequest(body), body);
  } catch (error) {
    if (!(error instanceof GoSyntaxError)) throw error;
    return { version: '', method: '', typeError: error.message };
  }
}

function fromParsed(parsed: ParsedValue, body: Uint8Array): ServerRequest {
  const request: ServerRequest = { version: '', method: '' };
  if (parsed.unsafeIntegers) request.exactParams = () => fromParsed(parseRequest(body, true), body).params;
  const root = parsed.value;
  if (root === null) return request;
  if (typeof root !== 'object' || Array.isArray(root)) {
    request.typeError = `json: cannot unmarshal ${kindOf(root)} into Go value of type json2.serverRequest`;
    return request;
  }
  for (const member of parsed.members) {
    const field = FIELDS[foldKey(member.key)];
    if (!field) continue;
    if (field === 'params') {
      if (member.value === null) {
        delete request.params;
        delete request.rawParams;
      } else {
        request.params = member.value;
        request.rawParams = () => compactBytes(body, member.start, member.end);
      }
    } else if (field === 'id') {
      if (member.value === null) delete request.id;
      else request.id = compactRaw(body, member.start, member.end);
    } else if (typeof member.value === 'string') {
      request[field === 'jsonrpc' ? 'version' : 'method'] = member.value;
    } else if (member.value !== null) {
      const kind = kindOf(member.value);
      request.typeError ??= `json: cannot unmarshal ${kind} into Go struct field serverRequest.${field} of type string`;
    }
  }
  return request;
}
