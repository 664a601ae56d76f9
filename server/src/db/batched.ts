// Many callers' small statements of the same kind, made as one: while one statement runs, the
// items that arrive queue up, and the next statement takes them all (up to `max`). Nothing waits
// on a timer: under light load an item is written at once, alone; under load, one round trip
// (and one commit) serves many items. Used where concurrent workers each end with the same
// write (the job runner's completions, an email's status), so that the database sees a
// statement per batch instead of one per item.
//
// With `lanes` above 1, that many batches run at once (each takes what has queued when it
// starts): for work of several round trips, where waiting for the whole previous batch would
// cost more latency than a second batch costs the database.
//
// A statement that fails for a batch of several is made again for each item alone: one item the
// database refuses fails alone, and the others go through.

export interface BatchedOptions {
  /** Items in one statement at most (default 100). */
  max?: number;
  /** Batches running at once at most (default 1). */
  lanes?: number;
}

/**
 * `run` gets a batch and answers one result per item, in the same order. The returned function
 * queues an item and resolves with its result once its batch is done.
 */
export function batched<T, R>(run: (items: T[]) => Promise<R[]>, options: BatchedOptions = {}): (item: T) => Promise<R> {
  const max = options.max ?? 100;
  const lanes = options.lanes ?? 1;
  const queue: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  let running = 0;

  async function settle(batch: typeof queue): Promise<void> {
    try {
      const results = await run(batch.map((entry) => entry.item));
      if (results.length !== batch.length) throw new Error(`batched: ${results.length} results for ${batch.length} items`);
      for (const [i, entry] of batch.entries()) entry.resolve(results[i] as R);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      // Which item was refused is not known: each again alone.
      for (const entry of batch) await settle([entry]);
    }
  }

  async function drain(): Promise<void> {
    running += 1;
    try {
      while (queue.length > 0) await settle(queue.splice(0, max));
    } finally {
      running -= 1;
    }
  }

  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (running < lanes) void drain();
    });
}
