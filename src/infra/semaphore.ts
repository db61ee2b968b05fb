// A counting semaphore with a bounded queue: at most `size` tasks run at once, at most `maxQueue`
// wait; past that `run` refuses at once, so a flood is turned away instead of piling up.

/** Thrown by `run` when the queue is full. */
export class QueueFull extends Error {
  constructor() {
    super("The semaphore's queue is full.");
  }
}

/** At most `size` concurrent tasks. */
export class Semaphore {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    readonly size: number,
    readonly maxQueue: number = Number.POSITIVE_INFINITY,
  ) {}

  /** Runs `fn` once a slot is free; throws QueueFull when `maxQueue` tasks wait already. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) {
      if (this.queue.length >= this.maxQueue) throw new QueueFull();
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await fn();
    } finally {
      const next = this.queue.shift();
      // The slot passes straight to the next waiter, so `active` only drops when nobody waits.
      if (next) next();
      else this.active--;
    }
  }

  /** Tasks running now. */
  get running(): number {
    return this.active;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }
}
