/**
 * What a first call would load or make (the served endpoints' params validators, runtime/server/ajv.ts compileSteps;
 * their patterns; the funded keys' addresses; mock/lazy-cchain.ts LazyCChain.idleSteps, the C-Chain's modules and its
 * loads), made or loaded instead before it: in slices between requests from the start, or once idle for what no slice
 * can cut.
 */
import { readFileSync } from 'node:fs';
import { linearRegExp } from '../generated/server/dist/runtime/patterns.js';

/** An answer in progress: a ServerResponse, which emits `close` once done. */
export interface Answering {
  once(event: 'close', listener: () => void): unknown;
}

/** What a step returns (or resolves to) to be taken again, as the next step of its list. */
export const AGAIN = Symbol('again');

/** How long the node must have had no request in flight before it takes a load (a step too long to be a slice). */
const IDLE_MS = 200;

/** How long a turn's run of slices, or a read of the module graph, may go on before it yields, in ms. */
const TURN_MS = 1;

/**
 * Takes what first calls would make or load, in two kinds of step. `slices`, each short (a validator's compilation, a
 * funded key's addresses, a module of a graph), start as soon as the server listens and run whenever no request is in
 * flight, one after another for at most TURN_MS a turn of the event loop, so that a request waits for no more than
 * that and the slice under way: a node called back to back from its start has them done between its answers. `loads`
 * are each one long piece of work that cannot be cut (a bundle's or a native library's evaluation, 6-25 ms): each
 * waits until the server has had no request in flight for IDLE_MS, counted from its listening or its last answer,
 * and takes the turn before any slice left. Never once the node closes; the idle timer is unref'd, and a slice's
 * turn holds a process only while the slices last. A step that fails is left to the call that needs it to report.
 */
export function whenIdle(
  slices: Array<() => unknown>,
  loads: Array<() => unknown> = [],
): {
  /** The server listens: the slices begin. */
  listening(): void;
  track(res: Answering): void;
  stop(): void;
  /** Settles once every step is taken, or on stop. */
  done: Promise<void>;
} {
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  let inFlight = 0;
  let running = false;
  let started = false;
  let quiet = false;
  let stopped = false;
  let turn: ReturnType<typeof setImmediate> | undefined;
  // Right after the I/O of this turn, so that a request read in it comes first. Not unref'd: an unref'd immediate
  // waits for something else to wake a loop that waits for I/O; stop() clears it.
  const nextTurn = () => {
    if (turn === undefined) turn = setImmediate(next);
  };
  let turnStart = 0;
  const next = () => {
    turn = undefined;
    turnStart = performance.now();
    take();
  };
  const take = () => {
    if (running || inFlight > 0 || stopped) return;
    const list = quiet && loads.length > 0 ? loads : started ? slices : [];
    const step = list.shift();
    if (!step) {
      if (slices.length === 0 && loads.length === 0) finished();
      return;
    }
    running = true;
    const after = (result?: unknown) => {
      running = false;
      if (result === AGAIN && !stopped) list.unshift(step);
      // More slices in this turn while they took less than TURN_MS: a request read meanwhile waits for no more.
      if (list === slices && !quiet && performance.now() - turnStart < TURN_MS) take();
      else nextTurn();
    };
    new Promise((resolve) => resolve(step())).then(after, () => after());
  };
  const becameQuiet = () => {
    quiet = true;
    nextTurn();
  };
  let idle: ReturnType<typeof setTimeout> | undefined;
  const answered = () => {
    if (--inFlight > 0) return;
    // Quiet again only IDLE_MS after this answer, even if the timer fired while the request was in flight.
    quiet = false;
    idle?.refresh();
    nextTurn();
  };
  return {
    listening: () => {
      started = true;
      // A node started and left alone (a person's, a test's set-up) loads before its first call.
      idle = setTimeout(becameQuiet, IDLE_MS).unref();
      nextTurn();
    },
    track: (res) => {
      if (slices.length === 0 && loads.length === 0) return;
      inFlight++;
      quiet = false;
      res.once('close', answered);
    },
    done,
    stop: () => {
      stopped = true;
      finished();
      slices.length = 0;
      loads.length = 0;
      clearTimeout(idle);
      clearImmediate(turn);
    },
  };
}

/**
 * `patterns` compiled, a few a step: the validators compile each on its first test
 * (runtime/server/patterns.ts deferredLinearRegExp, a process-wide cache), which was a first call's largest part
 * after the validators themselves (a pattern's linearity proof, RE2JS for the few it cannot prove).
 */
export function patternSteps(patterns: Iterable<string>, perStep = 4): Array<() => unknown> {
  const list = [...new Set(patterns)];
  return Array.from({ length: Math.ceil(list.length / perStep) }, (_, i) => () => {
    for (const pattern of list.slice(i * perStep, (i + 1) * perStep)) linearRegExp(pattern);
  });
}

/** A module's static imports (not `import type`, not `import()`), as biome formats them. */
const STATIC_IMPORT = /^(?:import|export)(?!\s+type\b)[^;'"]*?\bfrom\s*'([^']+)'|^import\s*'([^']+)'/gm;

/**
 * Steps that import the graphs of `entries` (module URLs) one module at a time, dependencies first: Node loads the
 * graph of a dynamic import in one go, 20-100 ms of a first C-Chain call in which no request is answered; a module
 * imported after its dependencies costs only its own compilation and evaluation, a millisecond or two. The graph is
 * read from the sources under `roots` as the steps go, a few files a step; a module elsewhere (a package; the server
 * package, loaded at start-up) is imported whole, and one already loaded costs a lookup. An import the pattern misses
 * is only loaded with the module that imports it; a source that cannot be read (the packaged mock, one bundle) is not
 * imported here at all.
 */
export function moduleSlices(entries: readonly string[], roots: readonly string[]): Array<() => unknown> {
  const seen = new Set<string>();
  // Depth-first: each frame is a module and the imports of it still to visit.
  const stack: Array<{ url: string; imports: string[] }> = [];
  const pending = [...entries];
  const open = (url: string): void => {
    if (seen.has(url)) return;
    seen.add(url);
    if (!roots.some((root) => url.startsWith(root))) return void stack.push({ url, imports: [] });
    let source: string;
    try {
      source = readFileSync(new URL(url), 'utf8');
    } catch {
      return;
    }
    const imports = [...source.matchAll(STATIC_IMPORT)].map(([, from, bare]) => from ?? bare!);
    stack.push({ url, imports: imports.map((spec) => (spec.startsWith('.') ? new URL(spec, url).href : spec)) });
  };
  /** Walks until a module's imports are all loaded, then imports it; false once the graphs are all loaded. */
  const slice = async (): Promise<boolean> => {
    const until = performance.now() + TURN_MS;
    while (performance.now() < until) {
      const frame = stack.at(-1);
      if (!frame) {
        const entry = pending.shift();
        if (entry === undefined) return false;
        open(entry);
        continue;
      }
      const next = frame.imports.shift();
      if (next !== undefined) {
        open(next);
        continue;
      }
      stack.pop();
      await import(frame.url).catch(() => undefined);
      return true;
    }
    return true;
  };
  return [() => slice().then((more) => (more ? AGAIN : undefined))];
}
