/** A per-path lock: mutations of one file run one after another, whoever calls them and in whatever order. */

/** The tail of each path's queue; a path is in the map only while someone holds or waits for its lock. */
const queues = new Map<string, Promise<void>>();

/**
 * Runs `task` once every earlier task for the same `path` (a real path, so two names of one file share a
 * queue) has settled, and returns its result. A failing task releases the lock like a successful one.
 */
export async function withFileLock<T>(path: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(path) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => release = resolve);
  // The queue's links only ever resolve, so one failed edit never poisons the next.
  const tail = previous.then(() => mine);
  queues.set(path, tail);
  try {
    await previous;
    return await task();
  } finally {
    release();
    if (queues.get(path) === tail) queues.delete(path);
  }
}
