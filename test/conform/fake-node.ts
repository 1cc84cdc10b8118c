/**
 * Small hand-written stand-ins for a node, on 127.0.0.1: they answer a few methods the way AvalancheGo does
 * (decode errors for params of the wrong type, the node's own messages for missing params), and can be told to
 * answer wrongly in known ways. Written by hand, not from the toolkit's validator, so they test it rather than echo it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hexEncode } from '../../generators/formats.ts';
import { INVALID_ARGUMENT } from '../../generated/server/dist/index.js';
import { listen } from '../support/rpc.ts';

export type Answer = { result: unknown } | { error: { code: number; message: string } };
type Params = Record<string, unknown>;
type Handler = (params: Params) => Answer;

const decodeError: Answer = { error: { code: -32000, message: INVALID_ARGUMENT } };
const ENCODINGS = /^(hex|hexc|hexnc|json)$/i;
const TX_BYTES = Uint8Array.from({ length: 48 }, (_, i) => i);
const TX_ID = '2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD';
const ZERO_ID = '11111111111111111111111111111111LpoYY';
const TX_JSON = {
  unsignedTx: { networkID: 1, blockchainID: ZERO_ID, outputs: [], inputs: [], memo: '0x' },
  credentials: [],
  id: TX_ID,
};

/** Methods and the endpoint path each is served on. */
const PATHS: Record<string, string> = {
  'platform.getHeight': '/ext/bc/P',
  'platform.getTimestamp': '/ext/bc/P',
  'platform.getBlockchainStatus': '/ext/bc/P',
  'platform.getTx': '/ext/bc/P',
  'avm.getTxStatus': '/ext/bc/X',
};

/** What a conforming node answers (wire shapes from the node's source, not from the spec files). */
export const faithful: Record<string, Handler> = {
  'platform.getHeight': () => ({ result: { height: '42' } }),
  'platform.getTimestamp': () => ({ result: { timestamp: '2024-05-01T12:00:00Z' } }),
  'platform.getBlockchainStatus': (p) => {
    if (p.blockchainID !== undefined && typeof p.blockchainID !== 'string') return decodeError;
    if (!p.blockchainID) return { error: { code: -32000, message: "argument 'blockchainID' not given" } };
    return { result: { status: 'Validating' } };
  },
  'platform.getTx': (p) => {
    if (
      (p.txID !== undefined && typeof p.txID !== 'string') ||
      (p.encoding !== undefined && (typeof p.encoding !== 'string' || !ENCODINGS.test(p.encoding)))
    )
      return decodeError;
    if (p.txID === undefined) return { error: { code: -32000, message: "couldn't get tx: not found" } };
    const encoding = String(p.encoding ?? 'hex').toLowerCase();
    const tx =
      encoding === 'json'
        ? TX_JSON
        : encoding === 'hexnc'
          ? `0x${Buffer.from(TX_BYTES).toString('hex')}`
          : hexEncode(TX_BYTES);
    return { result: { tx, encoding } };
  },
  'avm.getTxStatus': (p) => {
    if (p.txID !== undefined && typeof p.txID !== 'string') return decodeError;
    if (p.txID === undefined) return { error: { code: -32000, message: 'nil transaction ID' } };
    return { result: { status: p.txID === TX_ID ? 'Accepted' : 'Unknown' } };
  },
};

export interface FakeNode {
  url: string;
  calls: Array<{ path: string; method: string; params: Params }>;
  close(): Promise<void>;
}

/** Serves `handlers` (by method name) on their paths; anything else gets the node's "can't find method" or a 404. */
export async function startFakeNode(handlers: Record<string, Handler>): Promise<FakeNode> {
  const calls: FakeNode['calls'] = [];
  const server = await listen((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const known = new Set(Object.values(PATHS));
      if (!known.has(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
        return;
      }
      let request: { id: unknown; method: string; params?: Params };
      try {
        request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof request;
      } catch (error) {
        const parseError = {
          jsonrpc: '2.0',
          error: { code: -32700, message: (error as Error).message, data: null },
          id: null,
        };
        res
          .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
          .end(`${JSON.stringify(parseError)}\n`);
        return;
      }
      const params = request.params ?? {};
      calls.push({ path: req.url ?? '', method: request.method, params });
      const handler = PATHS[request.method] === req.url ? handlers[request.method] : undefined;
      const answer: Answer = handler
        ? handler(params)
        : { error: { code: -32000, message: `rpc: can't find method "${request.method}"` } };
      const body =
        'result' in answer
          ? { jsonrpc: '2.0', result: answer.result, id: request.id }
          : { jsonrpc: '2.0', error: { ...answer.error, data: null }, id: request.id };
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(`${JSON.stringify(body)}\n`);
    });
  });
  return { url: server.url, calls, close: server.close };
}
