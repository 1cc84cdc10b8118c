/** A generated X-Chain stub with recording handlers, behind a router, on 127.0.0.1 (for the wire tests). */
import {
  type EndpointOptions,
  RpcError,
  createRouter,
  createXChainEndpoint,
  xChainMethods,
} from '../../generated/server/dist/index.js';
import { listen } from '../support/rpc.ts';

export const ADDRESS = 'X-avax18jma8ppw3nhx5r4ap8clazz0dps7rv5ukulre5';
export const TX_ID = '2oJCbb8pfdxEHAf9A8CdN4Afj9VSR3xzyzNkf8tDv7aM1sfNFL';

export interface Recorder {
  calls: Array<{ method: string; params: unknown; notification: boolean }>;
}

/** Handlers: getBalance echoes a fixed balance, getTx fails the way its txID asks, getHeight returns `height`. */
export function stubHandlers(recorder: Recorder, height: unknown = '42') {
  const handlers: Record<
    string,
    (params: Record<string, unknown>, context: { method: string; notification: boolean }) => unknown
  > = {};
  for (const spec of xChainMethods) {
    handlers[spec.handler] = (params, context) => {
      recorder.calls.push({ method: context.method, params, notification: context.notification });
      return {};
    };
  }
  const record = handlers.getHeight!;
  handlers.getHeight = (params, context) => {
    record(params, context);
    return { height };
  };
  handlers.getBalance = (params, context) => {
    record(params, context);
    return { balance: '7', utxoIDs: [] };
  };
  handlers.getTx = (params, context) => {
    record(params, context);
    if (params.txID === TX_ID) throw new Error('tx not found <&>');
    throw new RpcError(-32042, 'custom failure', { reason: 'chosen' });
  };
  return handlers;
}

export async function startStub(options: EndpointOptions = {}, height?: unknown) {
  const recorder: Recorder = { calls: [] };
  const endpoint = createXChainEndpoint(stubHandlers(recorder, height) as never, options);
  const server = await listen(createRouter({ '/ext/bc/X': endpoint }).node as never);
  return { ...server, endpoint, recorder };
}
