/**
 * `/ext/bc/C/rpc` against what an adversarial tester sent: each request gets coreth's answer (its geth-derived rpc/,
 * eth/filters, internal/ethapi) before the engine sees it, and none stalls the chain.
 */
import { request } from 'node:http';
import { JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';
import { EWOQ } from './sdk-world.ts';

let node: RunningMockNode;
let url: string;
beforeAll(async () => {
  node = await startMockNode({ port: 0, world: { network: 'local', accounts: 1 } });
  url = `${node.url}/ext/bc/C/rpc`;
});
afterAll(() => node?.close());

async function call(method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: unknown }> {
  const { text } = await send(url, { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const { result, error } = JSON.parse(text) as { result?: unknown; error?: unknown };
  return error === undefined ? { result } : { error };
}

const head = async () => BigInt((await call('eth_blockNumber')).result as string);
/** A transfer signed by the ewoq key: one new block. */
const mine = async () => {
  const wallet = new Wallet(
    `0x${Buffer.from(EWOQ).toString('hex')}`,
    new JsonRpcProvider(url, undefined, { cacheTimeout: -1 }),
  );
  await (await wallet.sendTransaction({ to: wallet.address, value: 1n })).wait();
  wallet.provider?.destroy();
};

describe('/ext/bc/C/rpc in coreth’s words', () => {
  it('refuses a log range past int64 or past the last accepted block, and still serves', async () => {
    expect(await call('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0xffffffffffffffff' }])).toEqual({
      error: { code: -32602, message: 'invalid argument 0: block number larger than int64' },
    });
    const last = await head();
    expect(await call('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x7fffffffffffffff' }])).toEqual({
      error: { code: -32000, message: `requested to block 9223372036854775807 after last accepted block ${last}` },
    });
    expect(await call('eth_getLogs', [{ fromBlock: '0x5', toBlock: '0x1' }])).toEqual({
      error: { code: -32000, message: 'invalid block range params' },
    });
    expect(await call('eth_newFilter', [{ fromBlock: '0x0', toBlock: '0xffffffffffffffff' }])).toEqual({
      error: { code: -32602, message: 'invalid argument 0: block number larger than int64' },
    });
    expect(await call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])).toEqual({ result: [] });
  });

  it('refuses a filter object with FilterCriteria’s texts, and unknown methods before the engine', async () => {
    const refused = (message: string) => ({ error: { code: -32602, message: `invalid argument 0: ${message}` } });
    expect(await call('eth_getLogs', [{ address: 5 }])).toEqual(refused('invalid addresses in query'));
    expect(await call('eth_getLogs', [{ address: ['0x12'] }])).toEqual(
      refused('invalid address at index 0: hex has invalid length 1 after decoding; expected 20 for address'),
    );
    expect(await call('eth_getLogs', [{ topics: [[5]] }])).toEqual(refused('invalid topic(s)'));
    expect(await call('eth_getLogs', [{ blockHash: `0x${'00'.repeat(32)}`, fromBlock: '0x0' }])).toEqual(
      refused('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other'),
    );
    expect(await call('eth_constructor')).toEqual({
      error: { code: -32601, message: 'the method eth_constructor does not exist/is not available' },
    });
  });

  it('refuses quantities too long for their Go type with the decoder’s text', async () => {
    const to = `0x${'11'.repeat(20)}`;
    const refused = (i: number, message: string) => ({
      error: { code: -32602, message: `invalid argument ${i}: ${message}` },
    });
    expect(await call('eth_call', [{ to, gas: '0x1ffffffffffffffff' }, 'latest'])).toEqual(
      refused(
        0,
        'json: cannot unmarshal hex number > 64 bits into Go struct field TransactionArgs.gas of type hexutil.Uint64',
      ),
    );
    expect(await call('eth_estimateGas', [{ to, value: `0x1${'0'.repeat(64)}` }])).toEqual(
      refused(
        0,
        'json: cannot unmarshal hex number > 256 bits into Go struct field TransactionArgs.value of type *hexutil.Big',
      ),
    );
    expect(await call('eth_getBalance', [to, `0x1${'0'.repeat(40)}`])).toEqual(refused(1, 'hex number > 64 bits'));
    expect(await call('eth_getBlockByNumber', [`0x${'f'.repeat(20)}`, false])).toEqual(
      refused(0, 'hex number > 64 bits'),
    );
    expect(await call('eth_call', [{ to, gas: '0x5208' }, 'latest'])).toEqual({ result: '0x' });
  });

  it('refuses a ws logs subscription whose filter FilterCriteria refuses', async () => {
    const ws = new WebSocket(`${node.url.replace('http', 'ws')}/ext/bc/C/ws`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answer = new Promise<unknown>((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)))));
    ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["logs",{"address":5}]}');
    expect(await answer).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'invalid argument 1: invalid addresses in query' },
    });
    ws.close();
  });

  it('gives a filter only what follows it, and "filter not found" for an unknown ID', async () => {
    await mine();
    const blocks = (await call('eth_newBlockFilter')).result as string;
    const logs = (await call('eth_newFilter', [{}])).result as string;
    expect(await call('eth_getFilterChanges', [blocks])).toEqual({ result: [] });
    await mine();
    const { result: latest } = (await call('eth_getBlockByNumber', ['latest', false])) as { result: { hash: string } };
    expect(await call('eth_getFilterChanges', [blocks])).toEqual({ result: [latest.hash] });
    expect(await call('eth_getFilterChanges', [blocks])).toEqual({ result: [] });
    expect(await call('eth_getFilterChanges', [logs])).toEqual({ result: [] });
    expect(await call('eth_uninstallFilter', [blocks])).toEqual({ result: true });
    expect(await call('eth_uninstallFilter', [blocks])).toEqual({ result: false });
    expect(await call('eth_getFilterChanges', [blocks])).toEqual({
      error: { code: -32000, message: 'filter not found' },
    });
  });

  it('answers a body as geth reads it: parse error past 10,000 levels, nothing for an empty one', async () => {
    const parseError = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } };
    for (const body of [
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
    ])
      expect(JSON.parse((await send(url, { body })).text)).toEqual(parseError);
    const empty = await send(url, { body: '' });
    expect([empty.status, empty.text]).toEqual([200, '']);
    // 9,990 levels are Go's to decode; the call is answered, whatever the engine says of it.
    const deep = `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":${'['.repeat(9990)}${']'.repeat(9990)}}`;
    const answer = await send(url, { body: deep });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ id: 1, error: { code: expect.any(Number) } });
  });

  it('answers a batch of 1,001 with one error bearing the first call’s id', async () => {
    const batch = [
      { jsonrpc: '2.0', method: 'eth_chainId' },
      ...Array(1000).fill({ jsonrpc: '2.0', id: 'x', method: 'eth_chainId' }),
    ];
    batch[1] = { jsonrpc: '2.0', id: 7, method: 'eth_chainId' };
    expect(JSON.parse((await send(url, { body: JSON.stringify(batch) })).text)).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'batch too large' } },
    ]);
  });

  it('answers a chunked body that never ends from its first 5 MiB, and serves on', async () => {
    const answer = await new Promise<{ status: number; text: string; sent: number }>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
      const chunk = Buffer.alloc(64 * 1024, ' ');
      let sent = 0;
      let done = false;
      req.write('[');
      const pump = () => {
        while (!done && req.write(chunk)) sent += chunk.length;
        if (!done) req.once('drain', pump);
      };
      req.on('response', (res) => {
        done = true;
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString(), sent }));
        res.on('error', reject);
      });
      req.on('error', () => undefined);
      pump();
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'parse error' },
    });
    expect(answer.sent).toBeLessThan(64 * 1024 * 1024);
    expect(await call('eth_chainId')).toEqual({ result: '0xa868' });
  });
});
