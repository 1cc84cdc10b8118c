/**
 * Validation of one proxied exchange, after the fact: the request (envelope, then params against the method's param
 * schemas) and the answer (envelope, then result schema or documented errors). Methods outside the spec (`info.*`,
 * `health.*`, EVM calls) pass through unjudged.
 */
import { transcriptBody } from './transcript.ts';
import type { SpecValidator, Violation } from './validate.ts';

export interface Exchange {
  seq: number;
  endpoint: string;
  httpMethod: string;
  /** Undefined when the body was too large to inspect. */
  request: Buffer | undefined;
  status: number;
  contentType: string | undefined;
  response: Buffer | undefined;
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
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function parse(bytes: Buffer): { ok: true; value: unknown } | { ok: false } {
  const body = transcriptBody(bytes);
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

  if (!request.ok)
    return {
      label: '(not JSON)',
      specified: false,
      violations: at('(not JSON)', 'request', [{ pointer: '', rule: 'json', message: 'the request body is not JSON' }]),
    };
  if (Array.isArray(request.value)) {
    return {
      label: '(batch)',
      specified: false,
      violations: at('(batch)', 'request', [
        { pointer: '', rule: 'type', message: 'a batch (array) request: AvalancheGo answers it with a parse error' },
      ]),
    };
  }
  if (!isObject(request.value) || typeof request.value.method !== 'string') {
    return {
      label: '(no method)',
      specified: false,
      violations: at('(no method)', 'request', [
        { pointer: '/method', rule: 'type', message: 'a JSON-RPC request must name its method as a string' },
      ]),
    };
  }
  const body = request.value;
  const method = body.method as string;
  if (!validator.methods.has(method)) return { method, label: method, specified: false, violations: [] };

  const requestViolations: Violation[] = [];
  if (body.jsonrpc !== '2.0') requestViolations.push({ pointer: '/jsonrpc', rule: 'const', message: 'must be "2.0"' });
  requestViolations.push(...validator.checkParams(method, body.params));

  const responseViolations: Violation[] = [];
  const notification = !('id' in body) || body.id === null;
  // Only a 200 carries a JSON-RPC answer; 404/405/415/503 are the HTTP layer speaking, and a notification gets no body.
  if (exchange.status === 200 && !notification) {
    if (exchange.response === undefined)
      return { method, label: method, specified: true, violations: at(method, 'request', requestViolations) };
    const answer = parse(exchange.response);
    if (!answer.ok)
      responseViolations.push({
        pointer: '',
        rule: 'json',
        message: `the answer is not JSON (content-type "${exchange.contentType ?? ''}")`,
      });
    else responseViolations.push(...validator.checkResponse(method, answer.value, body.id));
  }
  return {
    method,
    label: method,
    specified: true,
    violations: [...at(method, 'request', requestViolations), ...at(method, 'response', responseViolations)],
  };
}
