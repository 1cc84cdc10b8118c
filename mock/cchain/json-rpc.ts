/**
 * The JSON-RPC envelope of `/ext/bc/C/rpc` as libevm's rpc package (geth v1.13.14: rpc/json.go, rpc/handler.go)
 * reads and answers it: each message decoded into a jsonrpcMessage (keys matched case-insensitively, the last of a
 * duplicate kept, a field of the wrong type left as it was), its id kept as json.RawMessage and written back as sent
 * (compacted); a call needs `"jsonrpc":"2.0"`, a method and an id that is neither an object nor an array
 * (isCall); a notification (no id) runs unanswered, a response is dropped, anything else is "invalid request". A
 * batch holds at most coreth's batch-request-limit of messages, and once its results add up to more than
 * batch-response-max-size bytes, the calls after are answered "response too large" (handleBatch).
 */
import { compactRaw } from '../../runtime/server/encode.ts';
import { GoSyntaxError, type ParsedValue, parseFirstValue } from '../../runtime/server/json.ts';
import { foldKey } from '../../runtime/server/params.ts';
import { decodeUtf8 } from '../../runtime/server/text.ts';

/** coreth's batch-request-limit default (plugin/evm/config/default_config.go), over HTTP and WebSocket. */
const MAX_BATCH = 1000;
/** coreth's batch-response-max-size default (plugin/evm/config/default_config.go). */
const MAX_BATCH_RESULT_BYTES = 25_000_000;

/** One call's whole answer (`{"jsonrpc":"2.0","id":…,"result"|"error":…}`), given its id as written. */
export type Serve = (id: string, method: string, params: unknown) => Promise<string>;

/** The fields of geth's jsonrpcMessage a server reads. */
interface Message {
  version: string;
  /** The id as written, compacted; absent when the message has none. */
  id?: string;
  method: string;
  params: unknown;
  hasParams: boolean;
  /** Whether `result` or a non-null `error` is set: with neither, an id and no method the message is no response. */
  answers: boolean;
}

/** An error answer; `data` as geth writes a DataError's (a revert's data through eth_fillTransaction's estimate). */
export const errorJson = (id: string | undefined, code: number, message: string, data?: unknown) =>
  `{"jsonrpc":"2.0",${id === undefined ? '' : `"id":${id},`}"error":{"code":${code},"message":${JSON.stringify(message)}${
    data === undefined ? '' : `,"data":${JSON.stringify(data)}`
  }}}`;

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** encoding/json's Unmarshal of one value into a jsonrpcMessage; a value that is no object leaves it empty. */
function decodeMessage(bytes: Uint8Array, parsed: ParsedValue): Message {
  const message: Message = { version: '', method: '', params: undefined, hasParams: false, answers: false };
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return message;
  let error = false;
  let result = false;
  let paramsText: string | undefined;
  for (const { key, value, start, end } of parsed.members) {
    const field = foldKey(key);
    if (field === 'JSONRPC' && typeof value === 'string') message.version = value;
    else if (field === 'METHOD' && typeof value === 'string') message.method = value;
    else if (field === 'ID') {
      const raw = compactRaw(bytes, start, end);
      message.id = typeof raw === 'string' ? raw : decodeUtf8(raw);
    } else if (field === 'PARAMS') {
      // Go's decoder reads each argument into its own type (./params.ts, by the C-Chain document's schemas), so a
      // number comes as JSON reads it, not as the shared reader's stand-in for a refused unsigned integer: a fraction
      // stays one where its schema is `number` (eth_feeHistory's float64 reward percentiles).
      paramsText = decodeUtf8(bytes.subarray(start, end));
      message.params = JSON.parse(paramsText);
      message.hasParams = true;
    } else if (field === 'ERROR') error = value !== null;
    else if (field === 'RESULT') result = true;
  }
  message.answers = error || result;
  if (message.method === 'eth_feeHistory' && paramsText !== undefined) message.params = withBlockCountText(paramsText);
  return message;
}

const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * eth_feeHistory's params, a blockCount number that Go refuses given as the text written: its math.HexOrDecimal64
 * parses that text (`1e1`, `1.0`, `-0`, digits past 2^64-1 are "invalid hex or decimal integer"), where JSON.parse
 * reads a number (./params.ts goHexOrDecimal64 refuses the text).
 */
function withBlockCountText(text: string): unknown {
  const written = new WeakMap<object, string>();
  const params: unknown = JSON.parse(text, function (this: object, key, value, context?: { source?: string }) {
    if (key === '0' && typeof value === 'number' && context?.source !== undefined) written.set(this, context.source);
    return value;
  });
  const source = Array.isArray(params) ? written.get(params) : undefined;
  if (source === undefined || (/^[0-9]+$/.test(source) && BigInt(source) <= MAX_UINT64)) return params;
  return [source, ...(params as unknown[]).slice(1)];
}

const validId = (id: string | undefined): id is string => id !== undefined && id[0] !== '{' && id[0] !== '[';
const isNotification = (m: Message) => m.version === '2.0' && m.id === undefined && m.method !== '';
const isCall = (m: Message) => m.version === '2.0' && validId(m.id) && m.method !== '';
const isResponse = (m: Message) => m.version === '2.0' && validId(m.id) && m.method === '' && !m.hasParams && m.answers;

/** handleCallMsg: the message's answer, or undefined for a notification (run all the same). */
async function answerMessage(message: Message, serve: Serve): Promise<string | undefined> {
  if (isNotification(message)) {
    // handleResponses takes a "…_subscription" notification for a subscription's result, which a server has none of.
    if (!message.method.endsWith('_subscription')) await serve('null', message.method, message.params);
    return undefined;
  }
  if (isCall(message)) return serve(message.id!, message.method, message.params);
  return errorJson(validId(message.id) ? message.id : 'null', -32600, 'invalid request');
}

/** The messages of a batch (the array that starts at `open`), each decoded on its own as parseMessage does. */
function batchMessages(bytes: Uint8Array, open: number): Message[] {
  const messages: Message[] = [];
  let at = open + 1;
  const skip = () => {
    while (isSpace(bytes[at])) at++;
  };
  skip();
  if (bytes[at] === 0x5d) return messages;
  for (;;) {
    const element = bytes.subarray(at);
    const parsed = parseFirstValue(element);
    messages.push(decodeMessage(element, parsed));
    at += parsed.end;
    skip();
    if (bytes[at] !== 0x2c) return messages;
    at++;
    skip();
  }
}

/** The bytes of a call's result in its answer, as handleBatch counts them (an error counts nothing). */
function resultBytes(answer: string, id: string): number {
  const prefix = `{"jsonrpc":"2.0","id":${id},"result":`;
  return answer.startsWith(prefix) ? Buffer.byteLength(answer) - Buffer.byteLength(prefix) - 1 : 0;
}

/** handleBatch: the answers in order, none for a response or a notification. */
async function answerBatch(messages: Message[], serve: Serve): Promise<string> {
  if (messages.length === 0) return errorJson('null', -32600, 'empty batch');
  if (messages.length > MAX_BATCH) {
    // respondWithBatchTooLarge: one error in an array, with the id of the batch's first call.
    const first = messages.find(isCall);
    return `[${errorJson(first?.id ?? 'null', -32600, 'batch too large')}]`;
  }
  const calls = messages.filter((message) => !isResponse(message));
  const answers: string[] = [];
  let size = 0;
  for (const [index, message] of calls.entries()) {
    const answer = await answerMessage(message, serve);
    if (answer === undefined) continue;
    answers.push(answer);
    size += message.id === undefined ? 0 : resultBytes(answer, message.id);
    if (size <= MAX_BATCH_RESULT_BYTES) continue;
    for (const rest of calls.slice(index + 1))
      if (!isNotification(rest)) answers.push(errorJson(rest.id, -32003, 'response too large'));
    break;
  }
  return answers.length === 0 ? '' : `[${answers.join(',')}]`;
}

/**
 * A body's answer, as geth's readBatch reads it: the first JSON value (Go's decoder: what follows is ignored, 10,000
 * levels of nesting at most); any syntax error is "parse error". Empty when there is nothing to answer: an empty body
 * (io.EOF), a notification, a response, a batch of only those.
 */
export async function answerJsonRpc(body: Uint8Array, serve: Serve): Promise<string> {
  let parsed: ParsedValue;
  try {
    parsed = parseFirstValue(body);
  } catch (error) {
    if (!(error instanceof GoSyntaxError)) throw error;
    return error.message === 'EOF' ? '' : errorJson('null', -32700, 'parse error');
  }
  return answerParsed(body, parsed, serve);
}

/** The answer to a body read without error (`parsed` its first value): a batch's or one message's, or empty. */
export async function answerParsed(body: Uint8Array, parsed: ParsedValue, serve: Serve): Promise<string> {
  let start = 0;
  while (isSpace(body[start])) start++;
  if (body[start] === 0x5b) return answerBatch(batchMessages(body, start), serve);
  const message = decodeMessage(body, parsed);
  if (isResponse(message)) return '';
  return (await answerMessage(message, serve)) ?? '';
}
