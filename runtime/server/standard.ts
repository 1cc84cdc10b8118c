/**
 * The `jsonrpc2` profile: the JSON-RPC 2.0 specification as written. Standard codes (-32700, -32600, -32601,
 * -32602, -32603), exact param names, batches, and `id: null` is a request (only a missing `id` makes a
 * notification). Handler errors keep the code of an RpcError; other exceptions are -32603 without their message.
 */
import { GoSyntaxError, parseFirstValue, setMember } from './json.ts';
import {
  type CallInfo,
  type Dispatcher,
  type MethodSpec,
  type RpcReply,
  RpcError,
  invoke,
  notify,
  outcomeText,
} from './rpc.ts';
import { preferExact, violationsOf } from './params.ts';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function errorJson(id: unknown, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return JSON.stringify({ jsonrpc: '2.0', error, id: id ?? null });
}

function replyOf(parts: string[], batch: boolean): RpcReply {
  if (parts.length === 0) return { status: 204, headers: {}, body: '' };
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: `${batch ? `[${parts.join(',')}]` : parts[0]}\n`,
  };
}

export async function answerStandard(dispatcher: Dispatcher, body: Uint8Array, call: CallInfo): Promise<RpcReply> {
  let value: unknown;
  // The same requests with every integer in params beyond 2^53 as its digits, when there is one.
  let exact: unknown;
  try {
    const parsed = parseFirstValue(body);
    let rest = parsed.end;
    while (rest < body.length && isSpace(body[rest])) rest++;
    if (rest < body.length) throw new GoSyntaxError('data after the JSON value');
    value = parsed.value;
    if (parsed.unsafeIntegers) exact = parseFirstValue(body, true).value;
  } catch (error) {
    if (!(error instanceof GoSyntaxError)) throw error;
    notify(dispatcher.options.onRefused, '', 'Parse error');
    return replyOf([errorJson(null, -32700, 'Parse error', error.message)], false);
  }
  if (!Array.isArray(value)) {
    const answer = await answerOne(dispatcher, value, exact, call);
    return replyOf(answer === undefined ? [] : [answer], false);
  }
  if (value.length === 0) {
    notify(dispatcher.options.onRefused, '', 'Invalid Request');
    return replyOf([errorJson(null, -32600, 'Invalid Request', 'empty batch')], false);
  }
  const answers = await Promise.all(
    value.map((request, i) => answerOne(dispatcher, request, (exact as unknown[] | undefined)?.[i], call)),
  );
  return replyOf(
    answers.filter((answer): answer is string => answer !== undefined),
    true,
  );
}

async function answerOne(
  dispatcher: Dispatcher,
  request: unknown,
  exact: unknown,
  call: CallInfo,
): Promise<string | undefined> {
  const method = isObject(request) && typeof request.method === 'string' ? request.method : '';
  const refuse = (id: unknown, code: number, message: string, data: unknown): string => {
    notify(dispatcher.options.onRefused, method, message);
    return errorJson(id, code, message, data);
  };
  if (!isObject(request)) return refuse(null, -32600, 'Invalid Request', 'a request is an object');
  const notification = !('id' in request);
  const id = request.id;
  if (!notification && id !== null && typeof id !== 'string' && typeof id !== 'number') {
    return refuse(null, -32600, 'Invalid Request', 'id must be a string, a number or null');
  }
  const answer = (json: string) => (notification ? undefined : json);
  if (request.jsonrpc !== '2.0') return answer(refuse(id, -32600, 'Invalid Request', 'jsonrpc must be "2.0"'));
  if (typeof request.method !== 'string')
    return answer(refuse(id, -32600, 'Invalid Request', 'method must be a string'));
  const spec = dispatcher.methods.get(request.method);
  if (!spec) return answer(refuse(id, -32601, 'Method not found', request.method));
  const params = paramsOf(spec, request.params);
  if (params instanceof ParamsRefusal)
    return answer(
      params.rule === 'type'
        ? refuse(id, -32600, 'Invalid Request', params.message)
        : refuse(id, -32602, 'Invalid params', params.message),
    );
  if (!spec.validateParams(params)) {
    const violations = violationsOf(spec.validateParams).map(({ path, message }) => ({ path, message }));
    return answer(refuse(id, -32602, 'Invalid params', violations));
  }
  const exactParams = isObject(exact) ? paramsOf(spec, exact.params) : undefined;
  const handed = exactParams instanceof ParamsRefusal ? params : preferExact(spec.validateParams, params, exactParams);
  const outcome = await invoke(dispatcher, spec, handed, call, notification);
  if ('json' in outcome)
    return answer(`{"jsonrpc":"2.0","result":${outcomeText(outcome.json)},"id":${JSON.stringify(id)}}`);
  const error = outcome.error;
  if (error instanceof RpcError)
    return answer(errorJson(id, error.code, error.message, error.data === null ? undefined : error.data));
  return answer(errorJson(id, -32603, 'Internal error'));
}

/** Why a call's params were refused before validation, named after the rule they break. */
export class ParamsRefusal {
  /** `type`: neither an object nor an array (an invalid request); the others are invalid params. */
  readonly rule: 'type' | 'paramStructure' | 'maxItems';
  readonly message: string;
  constructor(
    /** `type`: neither an object nor an array (an invalid request); the others are invalid params. */
    rule: 'type' | 'paramStructure' | 'maxItems',
    message: string,
  ) {
    this.rule = rule;
    this.message = message;
  }
}

/**
 * The params a call passes to its method's validator, by name. By name: the declared params, exactly spelled (others
 * are not the method's and are dropped). By position: only where the method allows it (`byName` refuses any array).
 * Conformance judges a call with this same function, so it flags exactly what a generated server refuses.
 */
export function paramsOf(spec: Pick<MethodSpec, 'name' | 'params' | 'byName'>, given: unknown): Json | ParamsRefusal {
  if (given === undefined) return {};
  const out: Json = {};
  if (isObject(given)) {
    for (const name of spec.params) if (Object.hasOwn(given, name)) setMember(out, name, given[name]);
    return out;
  }
  if (!Array.isArray(given)) return new ParamsRefusal('type', 'params must be an object or an array');
  if (spec.byName) return new ParamsRefusal('paramStructure', `${spec.name} takes its params by name, as an object`);
  if (given.length > spec.params.length)
    return new ParamsRefusal('maxItems', `${spec.name} takes at most ${spec.params.length} params`);
  given.forEach((value, i) => setMember(out, spec.params[i]!, value));
  return out;
}
