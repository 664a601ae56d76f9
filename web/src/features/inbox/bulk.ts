// One change on the selected conversations. The API has no bulk route: the per-conversation
// endpoints are called a few at a time (never the whole selection at once), each failure kept.
import { t } from '../../i18n/t';
import { type Change, changeConversation } from '../conversation/changes';

/** How many requests of a bulk action are in flight at once. */
export const BULK_CONCURRENCY = 4;

/** `run` on every item, at most `limit` at a time; the outcomes in the items' order. */
export async function settleBounded<T, R>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const outcomes: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        outcomes[index] = { status: 'fulfilled', value: await run(items[index] as T) };
      } catch (reason) {
        outcomes[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return outcomes;
}

export interface BulkOutcome {
  ok: number;
  failed: number;
  /** The distinct reasons of the failures, each with how many conversations it stopped. */
  reasons: Array<{ message: string; count: number }>;
}

export async function changeMany(uuids: readonly string[], change: Change): Promise<BulkOutcome> {
  const outcomes = await settleBounded(uuids, BULK_CONCURRENCY, (uuid) => changeConversation(uuid, change));
  const reasons = new Map<string, number>();
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') continue;
    const message = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
    reasons.set(message, (reasons.get(message) ?? 0) + 1);
  }
  const failed = outcomes.length - outcomes.filter((o) => o.status === 'fulfilled').length;
  return { ok: outcomes.length - failed, failed, reasons: [...reasons].map(([message, count]) => ({ message, count })) };
}

/** "Updated 5 conversations", or "Updated 3 of 5 conversations; 2 failed: <reason> (2)". */
export function describeOutcome({ ok, failed, reasons }: BulkOutcome): string {
  if (failed === 0) return t('inbox.bulk.done', { n: ok });
  const why = reasons.map(({ message, count }) => (reasons.length > 1 ? `${message} (${count})` : message)).join('; ');
  return t('inbox.bulk.partial', { ok, n: ok + failed, failed, error: why });
}
