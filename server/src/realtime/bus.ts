// The event bus: in-process by default, Redis pub/sub when REDIS_URL is set, so
// that every instance hears what any instance publishes.
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

export type BusHandler = (message: Record<string, unknown>) => void;

export interface EventBus {
  readonly kind: 'memory' | 'redis';
  publish(channel: string, message: Record<string, unknown>): Promise<void>;
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export function createMemoryBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: 'memory',
    async publish(channel, message) {
      emitter.emit(channel, message);
    },
    async subscribe(channel, handler) {
      emitter.on(channel, handler);
      return async () => {
        emitter.off(channel, handler);
      };
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

export interface RedisBusOptions {
  url: string;
  /** Prefix of every channel, so that several deployments (or tests) can share one Redis. */
  prefix: string;
  onError?: (error: Error) => void;
}

export async function createRedisBus(options: RedisBusOptions): Promise<EventBus> {
  const publisher = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: null });
  const report = options.onError ?? (() => {});
  publisher.on('error', report);
  subscriber.on('error', report);
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers = new Map<string, Set<BusHandler>>();
  subscriber.on('message', (fullChannel: string, raw: string) => {
    const set = handlers.get(fullChannel);
    if (!set) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return;
    for (const handler of set) handler(parsed as Record<string, unknown>);
  });
  return {
    kind: 'redis',
    async publish(channel, message) {
      await publisher.publish(options.prefix + channel, JSON.stringify(message));
    },
    async subscribe(channel, handler) {
      const full = options.prefix + channel;
      let set = handlers.get(full);
      if (!set) {
        set = new Set();
        handlers.set(full, set);
        await subscriber.subscribe(full);
      }
      set.add(handler);
      return async () => {
        set.delete(handler);
        if (set.size === 0) {
          handlers.delete(full);
          await subscriber.unsubscribe(full);
        }
      };
    },
    async close() {
      handlers.clear();
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
