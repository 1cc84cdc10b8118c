/**
 * What a first call would load or make (mock/lazy-cchain.ts C_CHAIN_MODULES and LazyCChain.idleSteps), loaded or made
 * instead while the node has nothing to do.
 */

/** An answer in progress: a ServerResponse, which emits `close` once done. */
export interface Answering {
  once(event: 'close', listener: () => void): unknown;
}

/** How long the node must have had no request in flight before it loads what a first call would. */
const IDLE_MS = 200;
/** And between one step and the next: short, so that a pause of a second or two sees them all done. */
const STEP_GAP_MS = 50;

/**
 * Runs `steps` one at a time once the server has answered a request and then had none in flight for IDLE_MS, each
 * next one STEP_GAP_MS after the last while none came: never at start-up, never while a request waits, never once it
 * closes. An answer holds the rest back until IDLE_MS after it; the timers are unref'd and keep no process alive. A
 * step that fails is left to the call that needs it to report.
 */
export function whenIdle(steps: Array<() => unknown>): { track(res: Answering): void; stop(): void } {
  let inFlight = 0;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let gap: ReturnType<typeof setTimeout> | undefined;
  const next = () => {
    if (running || inFlight > 0) return;
    const step = steps.shift();
    if (!step) return;
    running = true;
    const done = () => {
      running = false;
      if (steps.length > 0) gap = setTimeout(next, STEP_GAP_MS).unref();
    };
    new Promise((resolve) => resolve(step())).then(done, done);
  };
  const answered = () => {
    clearTimeout(gap);
    if (--inFlight === 0) (timer ??= setTimeout(next, IDLE_MS).unref()).refresh();
  };
  return {
    track: (res) => {
      if (steps.length === 0) return;
      inFlight++;
      res.once('close', answered);
    },
    stop: () => {
      steps.length = 0;
      clearTimeout(timer);
      clearTimeout(gap);
    },
  };
}
