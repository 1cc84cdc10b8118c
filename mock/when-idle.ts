/**
 * What a first call would load or make (the served endpoints' params validators, runtime/server/ajv.ts compileSteps;
 * their patterns; mock/lazy-cchain.ts C_CHAIN_MODULES and LazyCChain.idleSteps), loaded or made instead while the node
 * has nothing to do.
 */
import { linearRegExp } from '../generated/server/dist/runtime/patterns.js';

/** An answer in progress: a ServerResponse, which emits `close` once done. */
export interface Answering {
  once(event: 'close', listener: () => void): unknown;
}

/** How long the node must have had no request in flight before it loads what a first call would. */
const IDLE_MS = 200;

/**
 * Runs `steps` one at a time once the server has had no request in flight for IDLE_MS, counted from its start (when
 * this is made, as it starts listening) or from its last answer, each next one a turn of the event loop after the
 * last (once the requests that came meanwhile are seen) while none came, so that a pause of a second or two sees a
 * hundred small steps done: never while a request waits (a client that calls at once after start-up, as `npm run
 * mock`'s first caller does, waits for none of it), never once it closes. An answer holds the rest back until IDLE_MS after it; the timers
 * are unref'd and keep no process alive. A step that fails is left to the call that needs it to report.
 */
export function whenIdle(steps: Array<() => unknown>): {
  track(res: Answering): void;
  stop(): void;
  /** Settles once every step is taken, or on stop. */
  done: Promise<void>;
} {
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  let inFlight = 0;
  let running = false;
  let gap: ReturnType<typeof setTimeout> | undefined;
  const next = () => {
    if (running || inFlight > 0) return;
    const step = steps.shift();
    if (!step) return finished();
    running = true;
    const after = () => {
      running = false;
      // A timer: an unref'd setImmediate would wait for something else to wake a loop that waits for I/O.
      if (steps.length > 0) gap = setTimeout(next, 0).unref();
      else finished();
    };
    new Promise((resolve) => resolve(step())).then(after, after);
  };
  const answered = () => {
    clearTimeout(gap);
    if (--inFlight === 0) timer.refresh();
  };
  // Armed at once: a node started and left alone (a person's, a test's set-up) loads before its first call.
  const timer = setTimeout(next, IDLE_MS).unref();
  return {
    track: (res) => {
      if (steps.length === 0) return;
      inFlight++;
      res.once('close', answered);
    },
    done,
    stop: () => {
      finished();
      steps.length = 0;
      clearTimeout(timer);
      clearTimeout(gap);
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
