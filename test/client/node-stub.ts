/** A stand-in for the node's HTTP API on 127.0.0.1: records each request and answers as the test says. */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { listen } from '../support/rpc.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Responder = (request: RecordedRequest, response: ServerResponse) => void;

export interface NodeStub {
  url: string;
  requests: RecordedRequest[];
  /** How the next requests are answered (default: the JSON-RPC result `{}` for the request's id). */
  respond: (responder: Responder) => void;
  close: () => Promise<void>;
}

/** Answers a JSON-RPC request with `result`, echoing its id, the way the node does. */
export function answer(result: unknown): Responder {
  return (request, response) => {
    const { id } = JSON.parse(request.body) as { id: unknown };
    response
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      .end(`${JSON.stringify({ jsonrpc: '2.0', result, id })}\n`);
  };
}

export async function startNodeStub(): Promise<NodeStub> {
  const requests: RecordedRequest[] = [];
  let responder: Responder = answer({});
  const server = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      responder(recorded, res);
    });
  });
  return {
    url: server.url,
    requests,
    respond: (next) => {
      responder = next;
    },
    close: server.close,
  };
}
