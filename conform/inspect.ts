/**
 * Validation of one proxied exchange, after the fact: the request (envelope, then params against the method's param
 * schemas) and the answer (envelope, then result schema or documented errors). Methods outside the spec (`info.*`,
 * `health.*`, EVM calls) pass through unjudged. A plain JSON-RPC 2.0 spec (no avalanche profile) may be called in
 * batches: each call of a batch is judged with the answer that carries its id.
 */
import type { KeptBody } from './transcript.ts';
import type { SpecValidator, Violation } from './validate.ts';
import { isObject } from '../generators/common/json.ts';

export interface Exchange {
  seq: number;
  endpoint: string;
  httpMethod: string;
  /** The body, parsed once on first need (./transcript.ts); undefined when it was too large to inspect. */
  request: KeptBody | undefined;
  status: number;
  contentType: string | undefined;
  /** As `request`. */
  response: KeptBody | undefined;
}

export interface ProxyViolation extends Violation {
  seq: number;
  endpoint: string;
  method: string;
  direction: 'request' | 'response';
}

export interface Inspection {
  /** The JSON-RPC method the request named, if any. */
  method?: string;
  /** What the summary counts the exchange under: the method, or a label such as `(not JSON)`. */
  label: string;
  specified: boolean;
  violations: ProxyViolation[];
}

type Obj = Record<string, unknown>;
const NO_METHOD = 'a JSON-RPC request must name its method as a string';
/** Reads, never changes, the parsed body: the transcript's redaction reads it after. */
function parse(kept: KeptBody): { ok: true; value: unknown } | { ok: false } {
  const body = kept();
  return 'json' in body ? { ok: true, value: body.json } : { ok: false };
}

export function inspectExchange(validator: SpecValidator, exchange: Exchange): Inspection {
  if (exchange.request === undefined) return { label: '(too large to inspect)', specified: false, violations: [] };
  // Anything but a JSON-RPC POST (a browser's GET, a CORS preflight) is not what the spec describes.
  if (exchange.httpMethod !== 'POST')
    return { label: `(HTTP ${exchange.httpMethod})`, specified: false, violations: [] };
  const request = parse(exchange.request);
  const at = (method: string, direction: ProxyViolation['direction'], list: Violation[]): ProxyViolation[] =>
    list.map((v) => ({ ...v, seq: exchange.seq, endpoint: exchange.endpoint, method, direction }));

  const refused = (label: string, violation: Violation): Inspection => ({
    label,
    specified: false,
    violations: at(label, 'request', [violation]),
  });
  if (!request.ok) return refused('(not JSON)', { pointer: '', rule: 'json', message: 'the request body is not JSON' });
  if (Array.isArray(request.value) && validator.model.profile !== 'avalanche')
    return inspectBatch(validator, exchange, request.value, at);
  if (Array.isArray(request.value))
    return refused('(batch)', {
      pointer: '',
      rule: 'type',
      message: 'a batch (array) request: AvalancheGo answers it with a parse error',
    });
  if (!isObject(request.value) || typeof request.value.method !== 'string')
    return refused('(no method)', { pointer: '/method', rule: 'type', message: NO_METHOD });
  const body = request.value;
  const method = body.method as string;
  if (!validator.methods.has(method)) return { method, label: method, specified: false, violations: [] };
  const requestViolations = checkRequest(validator, body);
  // Node profile: `id: null` is a notification too (gorilla/rpc); JSON-RPC 2.0: only a missing id is.
  const notification = !('id' in body) || (body.id === null && validator.model.profile === 'avalanche');
  // Only a 200 carries a JSON-RPC answer; 404/405/415/503 are the HTTP layer speaking, and a notification gets no body.
  if (exchange.status !== 200 || notification || exchange.response === undefined)
    return { method, label: method, specified: true, violations: at(method, 'request', requestViolations) };
  const answer = parse(exchange.response);
  const responseViolations = answer.ok ? validator.checkResponse(method, answer.value, body.id) : [notJson(exchange)];
  return {
    method,
    label: method,
    specified: true,
    violations: [...at(method, 'request', requestViolations), ...at(method, 'response', responseViolations)],
  };
}

function checkRequest(validator: SpecValidator, body: Obj): Violation[] {
  const violations: Violation[] = [];
  if (body.jsonrpc !== '2.0') violations.push({ pointer: '/jsonrpc', rule: 'const', message: 'must be "2.0"' });
  violations.push(...validator.checkParams(body.method as string, body.params));
  return violations;
}

function notJson(exchange: Exchange): Violation {
  return {
    pointer: '',
    rule: 'json',
    message: `the answer is not JSON (content-type "${exchange.contentType ?? ''}")`,
  };
}

const under = (prefix: string, list: Violation[]) => list.map((v) => ({ ...v, pointer: `${prefix}${v.pointer}` }));

/** A JSON-RPC 2.0 batch: each call against the spec, each answered call against the answer with its id. */
function inspectBatch(
  validator: SpecValidator,
  exchange: Exchange,
  calls: unknown[],
  at: (method: string, direction: ProxyViolation['direction'], list: Violation[]) => ProxyViolation[],
): Inspection {
  const label = '(batch)';
  if (calls.length === 0)
    return {
      label,
      specified: false,
      violations: at(label, 'request', [{ pointer: '', rule: 'minItems', message: 'an empty batch is not a request' }]),
    };
  const parsed = exchange.status === 200 && exchange.response !== undefined ? parse(exchange.response) : undefined;
  const violations: ProxyViolation[] = [];
  if (parsed && !parsed.ok) violations.push(...at(label, 'response', [notJson(exchange)]));
  const answers = parsed?.ok ? parsed.value : undefined;
  if (parsed?.ok && !Array.isArray(answers))
    violations.push(
      ...at(label, 'response', [{ pointer: '', rule: 'type', message: 'a batch must be answered with an array' }]),
    );
  // Answers by id, in one pass: a batch of n calls is judged in time linear in n.
  const byId = new Map<string, unknown>();
  if (Array.isArray(answers))
    for (const answer of answers) {
      const key = isObject(answer) ? safeKey(answer.id) : undefined;
      if (key !== undefined) byId.set(key, answer);
    }
  let specified = false;
  calls.forEach((call, i) => {
    if (!isObject(call) || typeof call.method !== 'string') {
      violations.push(...at(label, 'request', [{ pointer: `/${i}/method`, rule: 'type', message: NO_METHOD }]));
      return;
    }
    const method = call.method;
    if (!validator.methods.has(method)) return;
    specified = true;
    violations.push(...at(method, 'request', under(`/${i}`, checkRequest(validator, call))));
    if (!('id' in call) || !Array.isArray(answers)) return;
    const key = safeKey(call.id);
    const answer = key === undefined ? undefined : byId.get(key);
    if (answer === undefined)
      violations.push(
        ...at(method, 'response', [
          { pointer: '', rule: 'batch', message: `no answer carries the id of call ${i} of the batch` },
        ]),
      );
    else violations.push(...at(method, 'response', validator.checkResponse(method, answer, call.id)));
  });
  return { label, specified, violations };
}

/** The id as a map key; ids are strings, numbers or null, anything else (nested thousands deep) has no key. */
function safeKey(id: unknown): string | undefined {
  return id === null || typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined;
}
