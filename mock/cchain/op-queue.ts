/**
 * The chain's one queue of ops (./evm.ts run): each holds it from its turn to its end, unless it steps aside while it
 * waits on something that needs no engine (a second engine's run, ./detached-call.ts), and then waits its turn again.
 */
interface Turn {
  /** When the op was queued: a request's arrival, from which coreth's deadlines count. */
  readonly queuedAt: number;
  ended: Promise<unknown>;
  release: () => void;
}

export class OpQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private current: Turn | undefined;
  /** Ops inside hold(): the engine holds a state made for them alone (an override's edits), which nobody may see. */
  private held = 0;

  /** When the op holding the queue was queued (Date.now()'s clock), or now outside any op. */
  get queuedAt(): number {
    return this.current?.queuedAt ?? Date.now();
  }

  run<T>(op: () => Promise<T>): Promise<T> {
    const turn: Turn = { queuedAt: Date.now(), ended: Promise.resolve(), release: () => undefined };
    const result = this.take(turn).then(op);
    turn.ended = result.catch(() => undefined);
    return result;
  }

  /** Inside an op: `work` runs while later ops take their turns; the op then waits for its turn again. */
  async aside<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.current;
    if (!turn || this.held > 0) return work();
    this.current = undefined;
    turn.release();
    try {
      return await work();
    } finally {
      await this.take(turn);
    }
  }

  /** Inside an op: `work` keeps the queue throughout, even where it would step aside. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.held++;
    try {
      return await work();
    } finally {
      this.held--;
    }
  }

  /** Settles once `turn` holds the queue, which it then keeps until it ends or steps aside. */
  private take(turn: Turn): Promise<void> {
    const released = new Promise<void>((resolve) => {
      turn.release = resolve;
    });
    const ready = this.tail.then(() => {
      this.current = turn;
    });
    this.tail = ready.then(() => Promise.race([turn.ended, released]));
    return ready;
  }
}
