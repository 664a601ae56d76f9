// batched(): what arrives while a statement runs goes into the next one; each caller gets its
// own result; one refused item fails alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { batched } from './batched.ts';

/** A run whose batches the test finishes by hand, recording each batch it was given. */
function manualRun() {
  const batches: number[][] = [];
  const finish: Array<() => void> = [];
  const run = (items: number[]) =>
    new Promise<string[]>((resolve) => {
      batches.push(items);
      finish.push(() => resolve(items.map((n) => `done ${n}`)));
    });
  return { batches, run, finishNext: () => finish.shift()?.() };
}

test('the first item is written at once, alone; the items arriving meanwhile go together into the next statement', async () => {
  const { batches, run, finishNext } = manualRun();
  const write = batched(run);
  const first = write(1);
  const others = [write(2), write(3), write(4)];
  assert.deepEqual(batches, [[1]]);
  finishNext();
  assert.equal(await first, 'done 1');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(batches, [[1], [2, 3, 4]]);
  finishNext();
  assert.deepEqual(await Promise.all(others), ['done 2', 'done 3', 'done 4']);
  // Idle again: the next item goes at once.
  const later = write(5);
  assert.deepEqual(batches.at(-1), [5]);
  finishNext();
  assert.equal(await later, 'done 5');
});

test('a batch holds at most `max` items; the rest follow in the next statements', async () => {
  const { batches, run, finishNext } = manualRun();
  const write = batched(run, { max: 2 });
  const all = [1, 2, 3, 4, 5, 6].map((n) => write(n));
  for (let i = 0; i < 4; i++) {
    finishNext();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.deepEqual(
    await Promise.all(all),
    [1, 2, 3, 4, 5, 6].map((n) => `done ${n}`),
  );
  assert.deepEqual(batches, [[1], [2, 3], [4, 5], [6]]);
});

test('a refused batch is written again item by item: only the bad item fails', async () => {
  const batches: number[][] = [];
  const write = batched(async (items: number[]) => {
    batches.push(items);
    if (items.includes(13)) throw new Error('refused: 13');
    return items.map((n) => n * 2);
  });
  const blocker = write(0);
  const results = await Promise.allSettled([write(12), write(13), write(14)]);
  assert.equal(await blocker, 0);
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
    [24, 'refused: 13', 28],
  );
  assert.deepEqual(batches, [[0], [12, 13, 14], [12], [13], [14]]);
});

test('a run answering the wrong number of results fails its callers instead of answering them wrongly', async () => {
  const write = batched(async (items: number[]) => items.slice(1));
  await assert.rejects(write(1), /0 results for 1 items/);
});

test('with two lanes, a second batch starts while the first runs; the rest wait for a lane', async () => {
  const { batches, run, finishNext } = manualRun();
  const write = batched(run, { lanes: 2 });
  const first = write(1);
  const second = write(2);
  const others = [write(3), write(4)];
  assert.deepEqual(batches, [[1], [2]], 'two batches at once, each of what had queued');
  finishNext();
  assert.equal(await first, 'done 1');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(batches, [[1], [2], [3, 4]], 'the freed lane takes everything that waited');
  finishNext();
  finishNext();
  assert.equal(await second, 'done 2');
  assert.deepEqual(await Promise.all(others), ['done 3', 'done 4']);
});
