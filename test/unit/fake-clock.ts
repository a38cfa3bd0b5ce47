/**
 * Fake timers for unit tests of time logic (what @sinonjs/fake-timers does for kafkajs's tests):
 * while installed, `performance.now`, `setTimeout`/`clearTimeout` and `setInterval`/`clearInterval`
 * read a clock that moves only when the test moves it. `advance` fires the timers due on the way in
 * order, each followed by the promise continuations it releases; `hold` moves it without firing any,
 * as a long synchronous step holds the event loop. Mocha keeps its own references to the real
 * timers, so its timeouts still work. `node:timers/promises` is not faked.
 */
interface Timer {
  due: number;
  fn: () => void;
  /** set for an interval */
  every?: number;
}

/** What Node's timer functions return, as far as the code under test uses it. */
interface Handle {
  id: number;
  unref(): Handle;
  ref(): Handle;
  hasRef(): boolean;
}

const realSetImmediate = setImmediate;

/** Lets every promise continuation that can run now run. */
export const settle = (): Promise<void> => new Promise((resolve) => realSetImmediate(resolve));

export class FakeClock {
  private at = 0;
  private lastId = 0;
  private readonly timers = new Map<number, Timer>();
  private restore: (() => void) | undefined;

  /** Milliseconds since install. */
  now(): number {
    return this.at;
  }

  install(): void {
    if (this.restore) throw new Error('the fake clock is already installed');
    const g = globalThis as unknown as Record<string, unknown>;
    const saved = Object.fromEntries(
      ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].map((name) => [name, g[name]]),
    );
    const clear = (handle: Handle | undefined) => {
      if (handle) this.timers.delete(handle.id);
    };
    g.setTimeout = (fn: () => void, ms = 0) => this.add({ due: this.at + Math.max(1, ms), fn });
    g.setInterval = (fn: () => void, ms = 0) =>
      this.add({ due: this.at + Math.max(1, ms), fn, every: Math.max(1, ms) });
    g.clearTimeout = clear;
    g.clearInterval = clear;
    Object.defineProperty(performance, 'now', { value: () => this.at, configurable: true, writable: true });
    this.restore = () => {
      Object.assign(g, saved);
      delete (performance as { now?: unknown }).now;
    };
  }

  uninstall(): void {
    this.restore?.();
    this.restore = undefined;
    this.timers.clear();
    this.at = 0;
  }

  /** Moves the clock by `ms`, firing every timer due on the way (an overdue one fires at once). */
  async advance(ms: number): Promise<void> {
    const until = this.at + ms;
    for (;;) {
      await settle();
      let next: [number, Timer] | undefined;
      for (const entry of this.timers) {
        if (entry[1].due <= until && (!next || entry[1].due < next[1].due)) next = entry;
      }
      if (!next) break;
      const [id, timer] = next;
      this.at = Math.max(this.at, timer.due);
      // As Node does, an interval runs again `every` after it ran, not after it was due.
      if (timer.every) timer.due = this.at + timer.every;
      else this.timers.delete(id);
      timer.fn();
    }
    this.at = until;
    await settle();
  }

  /** Moves the clock by `ms` with no timer firing: the event loop held by a synchronous step. */
  hold(ms: number): void {
    this.at += ms;
  }

  private add(timer: Timer): Handle {
    const id = ++this.lastId;
    this.timers.set(id, timer);
    const handle: Handle = { id, unref: () => handle, ref: () => handle, hasRef: () => true };
    return handle;
  }
}
