/**
 * What a C-Chain node serves beside the EVM's calls: coreth's eth_getChainConfig for the network, avax.version of the
 * emulated release, and `/ext/bc/C/ws` driven by viem's WebSocket transport (calls, newHeads and logs subscriptions).
 */
import { type Hex, createPublicClient, webSocket } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';
import { ABI, BYTECODE, cClients } from './c-clients.ts';

let node: RunningMockNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

const start = async (nodeVersion?: string) => {
  node = await startMockNode({
    port: 0,
    world: { network: 'local', accounts: 0 },
    ...(nodeVersion ? { nodeVersion } : {}),
  });
  return node;
};

describe('the C-Chain node', () => {
  it("answers coreth's chain config of the local network", async () => {
    const { url } = await start();
    const { result } = await callRpc(`${url}/ext/bc/C/rpc`, 'eth_getChainConfig', []);
    const initiallyActive = Date.parse('2020-12-05T05:00:00Z') / 1000;
    expect(result).toMatchObject({
      chainId: 43112,
      daoForkSupport: true,
      berlinBlock: 0,
      londonBlock: 0,
      shanghaiTime: initiallyActive,
      cancunTime: initiallyActive,
      apricotPhase1BlockTimestamp: initiallyActive,
      fortunaTimestamp: initiallyActive,
      graniteTimestamp: initiallyActive,
      heliconTimestamp: Date.parse('9999-12-01T00:00:00Z') / 1000,
    });
  });

  it("writes the upgrade fields the emulated release's coreth has, as the document versions them", async () => {
    const upgradeFields = async (release: string) => {
      const { url } = await start(release);
      const { result } = await callRpc(`${url}/ext/bc/C/rpc`, 'eth_getChainConfig', []);
      await node!.close();
      node = undefined;
      return Object.keys(result as object).filter((key) => /Timestamp$/.test(key) && !key.startsWith('apricot'));
    };
    // v1.10.17's coreth (v0.12.9) named Durango dUpgradeBlockTimestamp, set (at 0) on local networks only.
    expect(await upgradeFields('v1.10.17')).toEqual([
      'banffBlockTimestamp',
      'cortinaBlockTimestamp',
      'dUpgradeBlockTimestamp',
    ]);
    expect(await upgradeFields('v1.11.11')).toEqual([
      'banffBlockTimestamp',
      'cortinaBlockTimestamp',
      'durangoBlockTimestamp',
      'etnaTimestamp',
    ]);
    expect(await upgradeFields('v1.14.0')).toEqual([
      'banffBlockTimestamp',
      'cortinaBlockTimestamp',
      'durangoBlockTimestamp',
      'etnaTimestamp',
      'fortunaTimestamp',
      'graniteTimestamp',
    ]);
  });

  it("names the emulated release's coreth in avax.version", async () => {
    for (const [release, coreth] of [
      ['v1.12.2', 'v0.14.1'],
      ['v1.11.0', 'v0.12.11'],
      ['v1.13.5', 'v0.15.4'],
    ]) {
      const { url } = await start(release);
      expect((await callRpc(`${url}/ext/bc/C/avax`, 'avax.version', {})).result).toEqual({ version: coreth });
      await node!.close();
      node = undefined;
    }
  });

  it('serves /ext/bc/C/ws: calls, newHeads and logs subscriptions; HTTP refuses subscriptions', async () => {
    const { url } = await start();
    const { chain, pub: httpClient, wallet } = cClients(url);
    const ws = createPublicClient({ chain, transport: webSocket(`${url.replace('http', 'ws')}/ext/bc/C/ws`) });
    expect(await ws.getChainId()).toBe(43112);
    const deploy = await wallet.deployContract({ abi: ABI, bytecode: BYTECODE });
    const address = (await httpClient.waitForTransactionReceipt({ hash: deploy })).contractAddress!;

    const heads: Hex[] = [];
    const values: bigint[] = [];
    let done: () => void = () => {};
    const both = new Promise<void>((resolve) => {
      done = resolve;
    });
    const check = () => heads.length > 0 && values.length > 0 && done();
    // Resolves once both subscriptions are in place: viem sends them as it gets its socket, and says nothing when done.
    const listeners = (await node!.state.cChain.load()).chain.blockListeners;
    const subscribed = new Promise<void>((resolve) => {
      const add = listeners.add.bind(listeners);
      listeners.add = (listener) => {
        add(listener);
        if (listeners.size >= 2) resolve();
        return listeners;
      };
    });
    const stopHeads = ws.watchBlocks({
      onBlock: (block) => {
        heads.push(block.hash!);
        check();
      },
    });
    const stopLogs = ws.watchContractEvent({
      address,
      abi: ABI,
      eventName: 'ValueSet',
      onLogs: (logs) => {
        values.push(...logs.map((l) => l.args.value!));
        check();
      },
    });
    await subscribed;
    const set = await wallet.writeContract({ address, abi: ABI, functionName: 'set', args: [7n] });
    const receipt = await httpClient.waitForTransactionReceipt({ hash: set });
    await both;
    stopHeads();
    stopLogs();
    expect(heads).toEqual([receipt.blockHash]);
    expect(values).toEqual([7n]);

    const refused = await callRpc(`${url}/ext/bc/C/rpc`, 'eth_subscribe', ['newHeads']);
    expect(refused.error).toEqual({ code: -32601, message: 'notifications not supported' });
  });
});
