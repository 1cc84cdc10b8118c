/**
 * One raw JSON-RPC call, answer kept as the node sent it. The conformance runner needs the raw answer (status, body,
 * envelope), which a typed client would rightly hide behind its own errors.
 */

export type RpcAnswer =
  | { kind: 'json'; status: number; body: unknown; text: string }
  | { kind: 'text'; status: number; text: string; contentType: string }
  | { kind: 'unreachable'; error: string };

export interface RpcCall {
  url: string;
  method: string;
  params: unknown;
  id: number;
  timeoutMs: number;
}

export async function callRpc({ url, method, params, id, timeoutMs }: RpcCall): Promise<RpcAnswer> {
  const request = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    return { kind: 'unreachable', error: describeFetchError(error, timeoutMs) };
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (/^application\/json\b/i.test(contentType) || (response.status === 200 && /^\s*[{[]/.test(text))) {
    try {
      return { kind: 'json', status: response.status, body: JSON.parse(text) as unknown, text };
    } catch {
      // Falls through: a body that claims JSON but is not is reported as text.
    }
  }
  return { kind: 'text', status: response.status, text, contentType };
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = err.cause;
  return cause?.code ? `${cause.code}${cause.message ? ` (${cause.message})` : ''}` : err.message;
}
