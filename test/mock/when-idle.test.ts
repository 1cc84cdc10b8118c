/**
 * The idle preload (mock/when-idle.ts): the steps one at a time once idle (from start-up, or after an answer), none
 * while a request is in flight, none after stop; and over HTTP, a node that idled has the C-Chain's modules loaded and its
 * chain still unbuilt.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { patternSteps, whenIdle } from '../../mock/when-idle.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { callRpc } from '../support/rpc.ts';

/** A request being answered: `close` ends it. */
const request = () => {
  const res = new EventEmitter();
  return {
    res: res as EventEmitter & { once(event: 'close', listener: () => void): unknown },
    end: () => res.emit('close'),
  };
};
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A step that records its start in `ran`, whose end the test decides; and a promise of its start. */
function controlled(ran: string[], name: string) {
  let finish!: () => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const step = () => {
    ran.push(name);
    started();
    return new Promise<void>((resolve) => (finish = resolve));
  };
  return { step, running, finish: () => finish() };
}

describe('whenIdle', () => {
  it('runs the steps one at a time once idle after an answer, and none while a request is in flight', async () => {
    const ran: string[] = [];
    const [a, b] = [controlled(ran, 'a'), controlled(ran, 'b')];
    const preload = whenIdle([a.step, b.step, () => ran.push('c')]);
    await turn();
    expect(ran).toEqual([]);
    const first = request();
    preload.track(first.res);
    first.end();
    await a.running;
    // A request that arrives while a step runs holds the next back until it is answered and the node idles again.
    const second = request();
    preload.track(second.res);
    a.finish();
    // A preload armed now runs its step IDLE_MS later: the first one's gap after its step has passed by then.
    const witness = controlled([], 'witness');
    const other = whenIdle([witness.step]);
    const third = request();
    other.track(third.res);
    third.end();
    await witness.running;
    witness.finish();
    other.stop();
    expect(ran).toEqual(['a']);
    second.end();
    await b.running;
    expect(ran).toEqual(['a', 'b']);
    b.finish();
    await expect.poll(() => ran, { timeout: 10_000 }).toEqual(['a', 'b', 'c']);
    preload.stop();
  });

  it('runs the steps of a server never called once idle from its start', async () => {
    const ran: string[] = [];
    const [a, b] = [controlled(ran, 'a'), controlled(ran, 'b')];
    const preload = whenIdle([a.step, b.step]);
    await a.running;
    expect(ran).toEqual(['a']);
    a.finish();
    await b.running;
    b.finish();
    // Settles once the last step is taken.
    await preload.done;
    expect(ran).toEqual(['a', 'b']);
    preload.stop();
  });

  it('runs nothing once stopped', async () => {
    const ran: string[] = [];
    const preload = whenIdle([() => ran.push('a')]);
    const first = request();
    preload.track(first.res);
    first.end();
    preload.stop();
    await preload.done;
    // A second preload armed after it: its step starts after the stopped one's timer (same delay, set first) would have fired.
    const late = controlled([], 'late');
    const other = whenIdle([late.step]);
    const again = request();
    other.track(again.res);
    again.end();
    await late.running;
    late.finish();
    other.stop();
    expect(ran).toEqual([]);
  });
});

describe('what a node makes while idle besides loads (accounts, release views, containers, patterns)', () => {
  it('answers after its idle steps as a node that never idled does', async () => {
    const idled = await startMockNode({ port: 0, indexEnabled: true });
    await idled.preloaded;
    // Called at once, back to back: its idle steps wait for a pause.
    const fresh = await startMockNode({ port: 0, indexEnabled: true });
    try {
      for (const [path, method, params] of [
        ['/ext/dev', 'dev.listAccounts', {}],
        ['/ext/index/X/block', 'index.getLastAccepted', { encoding: 'hex' }],
        ['/ext/index/P/block', 'index.getContainerRange', { startIndex: 0, numToFetch: 2, encoding: 'hex' }],
        ['/ext/bc/P', 'platform.getHeight', {}],
      ] as const) {
        const answer = await callRpc(`${idled.url}${path}`, method, params);
        expect(answer.result).toBeDefined();
        expect(answer).toEqual(await callRpc(`${fresh.url}${path}`, method, params));
      }
    } finally {
      await Promise.all([idled.close(), fresh.close()]);
    }
  });

  it('compiles each pattern once, a few a step', () => {
    const steps = patternSteps(['^x$', '^y+$', '^x$', '^[0-9]{1,3}$'], 2);
    // Three distinct patterns (generators/model/patterns.ts finds them in the served endpoints' schemas), two a step.
    expect(steps).toHaveLength(2);
    for (const step of steps) step();
  });
});

describe('a node that idled after its first answer', () => {
  it('has loaded what a first atomic tx needs, and built no chain', async () => {
    const node = await startMockNode({ port: 0 });
    try {
      expect((await callRpc(`${node.url}/ext/info`, 'info.getNetworkID', {})).result).toBeDefined();
      await node.preloaded;
      const { avalancheLoaded } = await import('../../mock/shared/avalanche.ts');
      expect(avalancheLoaded()).toBe(true);
      // Its engine may have been made meanwhile (ready for a first C-Chain call), but no C-Chain call has started it.
      expect(node.state.cChain.loaded?.chain.started ?? false).toBe(false);
      expect(node.state.world.preForkGenesis.get('C')).toBeUndefined();
    } finally {
      await node.close();
    }
  });
});

describe("a C-Chain engine made while the node idled (LazyCChain's idle steps)", () => {
  const genesis = async (url: string) =>
    (await callRpc(`${url}/ext/bc/C/rpc`, 'eth_getBlockByNumber', ['0x0', false])).result as { timestamp: string };

  /** A node that ran its idle steps, and one that did not, from the same world; `between` runs on both after. */
  async function idledAndFresh(between: (node: RunningMockNode) => Promise<unknown>, network?: 'fuji') {
    const idled = await startMockNode({ port: 0, world: { network, accounts: 2 } });
    const fresh = await startMockNode({ port: 0, world: { network, accounts: 2 } });
    for (const step of idled.state.cChain.idleSteps()) await step();
    expect(idled.state.cChain.loaded?.chain.started).toBe(false);
    expect(idled.state.world.preForkGenesis.get('C')).toBeUndefined();
    await between(idled);
    await between(fresh);
    return { idled, fresh, close: () => Promise.all([idled.close(), fresh.close()]) };
  }

  it('shows nothing before the first C-Chain call, which finds the chain it would have made', async () => {
    const { idled, fresh, close } = await idledAndFresh(async () => undefined);
    try {
      expect(await genesis(idled.url)).toEqual(await genesis(fresh.url));
      expect(idled.state.world.preForkGenesis.get('C')).toBeDefined();
      expect(idled.state.world.preForkGenesis.get('C')).toEqual(fresh.state.world.preForkGenesis.get('C'));
    } finally {
      await close();
    }
  });

  // On Fuji the genesis block is at the world's time when the chain is made (local's is at its genesis file's).
  it('is dropped when the world moved on before the first C-Chain call', async () => {
    const later = 1_800_000_000n;
    const { idled, fresh, close } = await idledAndFresh(
      (node) => node.dev.setTime({ timestamp: String(later), mine: false }),
      'fuji',
    );
    try {
      const block = await genesis(idled.url);
      expect(BigInt(block.timestamp)).toBe(later);
      expect(block).toEqual(await genesis(fresh.url));
    } finally {
      await close();
    }
  });
});
