/**
 * The preload (mock/when-idle.ts): slices one at a time from listening, between requests; loads once idle (from
 * start-up, or after an answer); none while a request is in flight, none after stop; a module graph imported a module
 * a step; and over HTTP, a node that idled has the C-Chain's modules loaded and its chain still unbuilt.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGAIN, moduleSlices, patternSteps, whenIdle } from '../../mock/when-idle.ts';
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
  it('takes slices one at a time from listening, none while a request is in flight, the next after its answer', async () => {
    const ran: string[] = [];
    const [a, b] = [controlled(ran, 'a'), controlled(ran, 'b')];
    const preload = whenIdle([a.step, b.step, () => ran.push('c')]);
    await turn();
    // Nothing before the server listens.
    expect(ran).toEqual([]);
    preload.listening();
    await a.running;
    // A request that arrives while a slice runs holds the next back until it is answered.
    const first = request();
    preload.track(first.res);
    a.finish();
    await turn();
    await turn();
    expect(ran).toEqual(['a']);
    first.end();
    // Taken at once after the answer, not once the node idled.
    await b.running;
    expect(ran).toEqual(['a', 'b']);
    b.finish();
    await preload.done;
    expect(ran).toEqual(['a', 'b', 'c']);
    preload.stop();
  });

  it('takes a slice again while it answers AGAIN', async () => {
    let left = 3;
    const preload = whenIdle([() => (--left > 0 ? AGAIN : undefined)]);
    preload.listening();
    await preload.done;
    expect(left).toBe(0);
    preload.stop();
  });

  it('takes the loads only once no request came for IDLE_MS', async () => {
    const ran: string[] = [];
    const slice = controlled(ran, 'slice');
    const preload = whenIdle([slice.step, () => ran.push('last slice')], [() => ran.push('load')]);
    preload.listening();
    await slice.running;
    // A request keeps the node from idling: the loads wait for IDLE_MS after its answer.
    const first = request();
    preload.track(first.res);
    slice.finish();
    first.end();
    await expect.poll(() => ran, { timeout: 10_000 }).toEqual(['slice', 'last slice']);
    await preload.done;
    expect(ran).toEqual(['slice', 'last slice', 'load']);
    preload.stop();
  });

  it('takes the loads of a server never called once idle from its listening', async () => {
    const ran: string[] = [];
    const [a, b] = [controlled(ran, 'a'), controlled(ran, 'b')];
    const preload = whenIdle([], [a.step, b.step]);
    preload.listening();
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

  it('takes nothing once stopped, not even a slice that asked to be taken again', async () => {
    const ran: string[] = [];
    const again = controlled(ran, 'again');
    const preload = whenIdle([() => again.step().then(() => AGAIN), () => ran.push('b')], [() => ran.push('load')]);
    preload.listening();
    await again.running;
    preload.stop();
    again.finish();
    await preload.done;
    // A second preload armed after it: its load starts after the stopped one's timer (same delay, set first) would
    // have fired.
    const late = controlled([], 'late');
    const other = whenIdle([], [late.step]);
    other.listening();
    await late.running;
    late.finish();
    other.stop();
    expect(ran).toEqual(['again']);
  });
});

describe('moduleSlices', () => {
  it("imports a graph's modules one a step, each after its imports, and nothing it cannot read", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'module-slices-'));
    try {
      const log = `globalThis.moduleSlicesLog ??= []; globalThis.moduleSlicesLog.push`;
      writeFileSync(join(dir, 'c.mjs'), `${log}('c');\nexport const c = 1;\n`);
      writeFileSync(join(dir, 'b.mjs'), `import { c } from './c.mjs';\n${log}('b');\nexport const b = c;\n`);
      writeFileSync(
        join(dir, 'a.mjs'),
        `import {\n  b,\n} from './b.mjs';\nexport * from './c.mjs';\n${log}('a' + b);\n`,
      );
      const url = (name: string) => pathToFileURL(join(dir, name)).href;
      const [step] = moduleSlices([url('a.mjs'), url('gone.mjs')], [pathToFileURL(`${dir}/`).href]);
      const seen = () => (globalThis as { moduleSlicesLog?: string[] }).moduleSlicesLog ?? [];
      const counts = [0];
      while ((await step!()) === AGAIN) counts.push(seen().length);
      // Each module evaluated in a step of its own (a step may also only read), its imports first.
      expect(seen()).toEqual(['c', 'b', 'a1']);
      expect(counts.slice(1).every((count, i) => count - counts[i]! <= 1)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('what a node makes while idle besides loads (accounts, release views, containers, patterns)', () => {
  it('answers after its idle steps as a node that never idled does', async () => {
    const idled = await startMockNode({ port: 0, indexEnabled: true });
    await idled.preloaded;
    // Called at once, back to back: its loads wait for a pause, its slices come between the calls.
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
    for (const step of idled.state.cChain.idleSteps().loads) await step();
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
