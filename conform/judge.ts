/**
 * Judging one answer of the conformance runner: a valid call, or one without a param the spec marks
 * `x-zero-when-absent` (which the node decodes to that zero value), must get the documented result or a documented
 * error; an invalid call, including one without any other required param, must get an error (for a param that fails to
 * decode, the node's documented decode error).
 * In plain JSON-RPC 2.0 an invalid call may get -32602 "Invalid params" or a documented error, and a valid one must not
 * get -32602.
 */
import type { EndpointModel, MethodModel, SpecMethod } from '../generators/model/types.ts';
import type { CaseKind } from './cases.ts';
import type { RpcAnswer } from './rpc.ts';
import { wireProfile } from './spec.ts';
import type { SpecValidator, Violation } from './validate.ts';
import { isObject } from '../generators/common/json.ts';

export type Verdict =
  | { kind: 'checked'; answer: 'result' | 'error'; error?: { code: number; message: string }; violations: Violation[] }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'unserved'; message: string };

/** gorilla/rpc's answer for a method the node does not have (AvalancheGo sends it with -32000, not -32601). */
const UNKNOWN_METHOD = /^rpc: can't find (method|service)\b/;
/** JSON-RPC 2.0's "Method not found" and "Invalid params". */
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

export function judge(
  validator: SpecValidator,
  entry: SpecMethod,
  kind: CaseKind,
  requestId: number,
  answer: RpcAnswer,
): Verdict {
  const { endpoint, method } = entry;
  const node = wireProfile(entry) === 'node';
  const failed = (violation: Violation): Verdict => ({ kind: 'checked', answer: 'error', violations: [violation] });
  if (answer.kind === 'unreachable')
    return failed({ pointer: '', rule: 'transport', message: `no answer: ${answer.error}` });
  // An API the operator did not enable (admin, keystore) or a chain still bootstrapping says nothing about the spec.
  if (answer.status === 404) return { kind: 'unavailable', reason: `endpoint not enabled on this node (HTTP 404)` };
  if (answer.status === 503)
    return { kind: 'unavailable', reason: `node not ready (HTTP 503: ${firstLine(answer.text)})` };
  if (answer.status !== 200)
    return failed({
      pointer: '',
      rule: 'http-status',
      message: `HTTP ${answer.status} where JSON-RPC answers with 200: ${firstLine(answer.text)}`,
    });
  if (answer.kind === 'text')
    return failed({
      pointer: '',
      rule: 'json',
      message: `the answer is not JSON (content-type "${answer.contentType}"): ${firstLine(answer.text)}`,
    });

  const body = answer.body;
  const error =
    isObject(body) && isObject(body.error)
      ? { code: body.error.code as number, message: String(body.error.message) }
      : undefined;
  const hasResult = isObject(body) && 'result' in body;
  if (error && (node ? UNKNOWN_METHOD.test(error.message) : error.code === METHOD_NOT_FOUND))
    return { kind: 'unserved', message: error.message };
  // Go's decoder leaves a missing param at its zero value and the handler answers: a documented error or a result.
  if (kind === 'example' || kind === 'absent-as-zero') {
    const violations = validator.checkResponse(method.name, body, requestId);
    // In plain JSON-RPC 2.0 -32602 is "Invalid params": valid params answered with it are refused wrongly.
    if (!node && error?.code === INVALID_PARAMS)
      violations.push({
        pointer: '/error',
        rule: 'params-accepted',
        message: `params the spec allows were refused as invalid: ${error.code} "${error.message}"`,
      });
    return { kind: 'checked', answer: hasResult ? 'result' : 'error', ...(error ? { error } : {}), violations };
  }
  if (hasResult) {
    return {
      kind: 'checked',
      answer: 'result',
      violations: [
        {
          pointer: '/result',
          rule: 'error-expected',
          message:
            kind === 'missing-required'
              ? 'a result where the spec requires an error: the node accepted the call without a required param ' +
                '(if it answers the zero value, the param needs x-zero-when-absent)'
              : 'a result where the spec requires an error: the node accepted an invalid request',
        },
      ],
    };
  }
  const violations = validator.checkResponse(method.name, body, requestId);
  const decodeError = node ? documentedDecodeError(endpoint, method) : undefined;
  // A missing value decodes fine; the handler refuses it with its own error, not the decode error.
  if (
    error &&
    kind !== 'missing-required' &&
    violations.length === 0 &&
    decodeError &&
    !(error.code === decodeError.code && error.message === decodeError.message)
  ) {
    violations.push({
      pointer: '/error',
      rule: 'decode-error',
      message:
        `a param that cannot be decoded must get ${decodeError.code} "${decodeError.message}", not ` +
        `${error.code} "${error.message}"`,
    });
  }
  return { kind: 'checked', answer: 'error', ...(error ? { error } : {}), violations };
}

/**
 * The error the node gives for params it cannot decode (the model's `invalidArgument` text), when the method lists it.
 */
export function documentedDecodeError(
  endpoint: Pick<EndpointModel, 'invalidArgument'>,
  method: Pick<MethodModel, 'errors'>,
): { code: number; message: string } | undefined {
  const error = endpoint.invalidArgument
    ? method.errors.find((e) => e.message === endpoint.invalidArgument)
    : undefined;
  return error && { code: error.code, message: error.message };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
