// Periodic tasks: each runs at its interval (with a little jitter, so that instances
// started together drift apart), never overlapping with itself in one instance. Every
// instance with workers runs every task, so tasks must be safe to run concurrently from
// several instances (conditional updates, SKIP LOCKED), as the domain functions are.
import type { AppDeps } from '../deps.ts';
import { describeJobError } from './jobs.runner.ts';

export interface PeriodicTask {
  /** Shown in logs, e.g. `conversations.wake_snoozed`. */
  name: string;
  everyMs: number;
  /** What it returns (usually a count of rows it touched) is logged at debug level. */
  run: (deps: AppDeps) => Promise<unknown>;
}

export interface PeriodicTaskOptions {
  /** Each interval is everyMs · (1 ± jitter) (default 0.1). */
  jitter?: number;
  /** The first run comes within min(everyMs, this) of the start (default 10 s), so that frequent restarts never starve an hourly task. */
  firstRunWithinMs?: number;
  random?: () => number;
}

interface TaskState {
  task: PeriodicTask;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
}

export function startPeriodicTasks(deps: AppDeps, tasks: PeriodicTask[], options: PeriodicTaskOptions = {}): { stop(): Promise<void> } {
  const jitter = options.jitter ?? 0.1;
  const firstRunWithinMs = options.firstRunWithinMs ?? 10_000;
  const random = options.random ?? Math.random;
  if (!(jitter >= 0 && jitter < 1)) throw new RangeError('periodic tasks: jitter must be in [0, 1)');
  for (const task of tasks) {
    if (!Number.isFinite(task.everyMs) || task.everyMs <= 0)
      throw new RangeError(`periodic task ${task.name}: everyMs must be a positive number`);
  }
  const log = deps.log.child({ component: 'periodic' });
  let stopping = false;

  async function runOnce(task: PeriodicTask): Promise<void> {
    const started = Date.now();
    try {
      const result = await task.run(deps);
      log.debug({ task: task.name, ms: Date.now() - started, result }, 'periodic task ran');
    } catch (error) {
      log.error(
        { task: task.name, ms: Date.now() - started, err: describeJobError(error) },
        'periodic task failed; it will run again at its next interval',
      );
    }
  }

  function schedule(state: TaskState, delayMs: number): void {
    if (stopping) return;
    state.timer = setTimeout(() => {
      state.timer = null;
      // The next run is scheduled only once this one has finished: a slow run delays the next, never overlaps it.
      state.running = runOnce(state.task).finally(() => {
        state.running = null;
        schedule(state, nextDelay(state.task.everyMs));
      });
    }, delayMs);
    state.timer.unref();
  }

  function nextDelay(everyMs: number): number {
    return Math.max(1, Math.round(everyMs * (1 + jitter * (2 * random() - 1))));
  }

  const states: TaskState[] = tasks.map((task) => ({ task, timer: null, running: null }));
  for (const state of states) schedule(state, Math.round(random() * Math.min(state.task.everyMs, firstRunWithinMs)));
  if (tasks.length > 0) log.info({ tasks: tasks.map((task) => task.name) }, 'periodic tasks started');

  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        for (const state of states) {
          if (state.timer !== null) clearTimeout(state.timer);
          state.timer = null;
        }
        await Promise.allSettled(states.map((state) => state.running));
      })();
      return stopped;
    },
  };
}
