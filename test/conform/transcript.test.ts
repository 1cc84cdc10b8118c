/** `--record`: one transcript per exchange, stable names, and a recording that replays against another node. */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startProxy } from '../../conform/proxy.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { NOT_JSON } from '../../conform/redact.ts';
import { readTranscripts, replayTranscript } from '../../conform/transcript.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { startMockNode } from '../../mock/node.ts';
import { send } from '../support/rpc.ts';
import { faithful, startFakeNode } from './fake-node.ts';

const validator = new SpecValidator(loadSpecModel());
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const post = (url: string, body: string) => send(url, { body });

describe('recording through the proxy', () => {
  it('writes <seq>-<method>.json per exchange, continuing the numbering of an earlier recording', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'transcripts-'));
    const node = await startFakeNode(faithful);
    closers.push(() => node.close());
    for (const round of [1, 2]) {
      const proxy = await startProxy({ upstream: node.url, validator, record: dir });
      await post(`${proxy.url}/ext/bc/P`, `{"jsonrpc":"2.0","id":${round},"method":"platform.getHeight"}`);
      await post(
        `${proxy.url}/ext/bc/X`,
        '{"jsonrpc":"2.0","id":"a","method":"avm.getTxStatus",' +
          '"params":{"txID":"2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD"}}',
      );
      await post(`${proxy.url}/ext/bc/P`, 'not json');
      await proxy.close();
    }
    expect(readdirSync(dir).sort()).toEqual([
      '000001-platform.getHeight.json',
      '000002-avm.getTxStatus.json',
      '000003-no-method.json',
      '000004-platform.getHeight.json',
      '000005-avm.getTxStatus.json',
      '000006-no-method.json',
    ]);
    const [first, second, third] = readTranscripts(dir).map((t) => t.transcript);
    expect(first).toEqual({
      endpoint: '/ext/bc/P',
      httpMethod: 'POST',
      method: 'platform.getHeight',
      request: { jsonrpc: '2.0', id: 1, method: 'platform.getHeight' },
      response: {
        status: 200,
        contentType: 'application/json; charset=utf-8',
        body: { jsonrpc: '2.0', result: { height: '42' }, id: 1 },
      },
    });
    expect(second!.endpoint).toBe('/ext/bc/X');
    // Not JSON: nothing of it is recorded, since nothing of it can be shown to hold no secret.
    expect(third).toMatchObject({ requestNote: NOT_JSON });
    expect(third).not.toHaveProperty('request');
  });

  it('replays a recording against another node with the same answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'transcripts-'));
    const recorded = await startFakeNode(faithful);
    const proxy = await startProxy({ upstream: recorded.url, validator, record: dir });
    closers.push(
      () => recorded.close(),
      () => proxy.close(),
    );
    await post(
      `${proxy.url}/ext/bc/P`,
      '{"jsonrpc":"2.0","id":1,"method":"platform.getTx",' +
        '"params":{"txID":"AkTcR1J5b6qPdLaUDycs1YqPAoNY9aPNyb33VSnvyQ6vTCryQ","encoding":"json"}}',
    );
    await post(`${proxy.url}/ext/bc/P`, '{"jsonrpc":"2.0","id":2,"method":"platform.getBlockchainStatus","params":{}}');
    await proxy.settled();

    const fresh = await startFakeNode(faithful);
    closers.push(() => fresh.close());
    const transcripts = readTranscripts(dir);
    expect(transcripts).toHaveLength(2);
    for (const { transcript } of transcripts)
      expect(await replayTranscript(transcript, fresh.url)).toEqual(transcript.response);
    expect(fresh.calls.map((c) => c.method)).toEqual(['platform.getTx', 'platform.getBlockchainStatus']);
  });
});

describe('a recording against the mock node', () => {
  it('replays against a fresh mock node with the same answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'transcripts-'));
    const recorded = await startMockNode({ port: 0, host: '127.0.0.1' });
    const proxy = await startProxy({ upstream: recorded.url, validator, record: dir });
    closers.push(
      () => recorded.close(),
      () => proxy.close(),
    );
    const calls: Array<[string, string]> = [
      ['/ext/bc/P', '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}'],
      [
        '/ext/bc/P',
        '{"jsonrpc":"2.0","id":2,"method":"platform.getBlockByHeight","params":{"height":"1","encoding":"json"}}',
      ],
      ['/ext/bc/X', '{"jsonrpc":"2.0","id":3,"method":"avm.getAssetDescription","params":{"assetID":"AVAX"}}'],
      ['/ext/bc/P', '{"jsonrpc":"2.0","id":4,"method":"platform.getTx","params":{"txID":5}}'],
    ];
    for (const [path, body] of calls) await post(proxy.url + path, body);
    await proxy.settled();

    const fresh = await startMockNode({ port: 0, host: '127.0.0.1' });
    closers.push(() => fresh.close());
    const transcripts = readTranscripts(dir);
    expect(transcripts.map((t) => t.transcript.method)).toEqual([
      'platform.getHeight',
      'platform.getBlockByHeight',
      'avm.getAssetDescription',
      'platform.getTx',
    ]);
    for (const { transcript } of transcripts)
      expect(await replayTranscript(transcript, fresh.url)).toEqual(transcript.response);
  });
});
