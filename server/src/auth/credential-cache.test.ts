// The credential cache on its own: shared verifications, renewal ahead of the end, and
// verifications that an invalidation overtook.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CredentialCache, type Principal } from './credential-cache.ts';

const principal = (userId: number): Principal => ({
  userId,
  email: `agent${userId}@example.com`,
  firstName: 'A',
  lastName: 'Gent',
  permissions: new Set(['conversations:read']),
  teamIds: [],
  method: 'api_key',
  sessionId: null,
});

/** A verification the test finishes by hand. */
function pending() {
  let resolve!: (value: Principal) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<Principal>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('CredentialCache', () => {
  it('runs one verification for concurrent checks of one key and shares its outcome', async () => {
    const cache = new CredentialCache();
    let calls = 0;
    const gate = pending();
    const verify = () => {
      calls += 1;
      return gate.promise;
    };
    const checks = Array.from({ length: 20 }, () => cache.verifyOnce('k:a', verify));
    const other = cache.verifyOnce('k:b', async () => principal(2));
    assert.equal(calls, 1);
    gate.resolve(principal(1));
    const results = await Promise.all(checks);
    assert.ok(results.every((p) => p.userId === 1));
    assert.equal((await other).userId, 2);
    // Once settled, the next check verifies again.
    await cache.verifyOnce('k:a', verify);
    assert.equal(calls, 2);
  });

  it('shares a failure too, and forgets it once settled', async () => {
    const cache = new CredentialCache();
    let calls = 0;
    const verify = async () => {
      calls += 1;
      throw new Error('invalid');
    };
    const outcomes = await Promise.allSettled([cache.verifyOnce('k:a', verify), cache.verifyOnce('k:a', verify)]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected'],
    );
    assert.equal(calls, 1);
    await assert.rejects(cache.verifyOnce('k:a', verify));
    assert.equal(calls, 2);
  });

  it('does not share a verification that started before an invalidation', async () => {
    const cache = new CredentialCache();
    let calls = 0;
    const before = pending();
    const first = cache.verifyOnce('k:a', () => {
      calls += 1;
      return before.promise;
    });
    cache.invalidateLocal(1); // e.g. a permission was taken away meanwhile
    const second = cache.verifyOnce('k:a', async () => {
      calls += 1;
      return { ...principal(1), permissions: new Set<string>() };
    });
    assert.equal(calls, 2, 'the request after the change verified again');
    before.resolve(principal(1));
    assert.equal((await first).permissions.size, 1);
    assert.equal((await second).permissions.size, 0);
    // The older one settling does not forget the newer one while it runs.
    const older = pending();
    const olderCheck = cache.verifyOnce('k:b', () => older.promise);
    cache.invalidateLocal(null);
    const newer = pending();
    const newerCheck = cache.verifyOnce('k:b', () => newer.promise);
    older.resolve(principal(2));
    await olderCheck;
    let extra = 0;
    const shared = cache.verifyOnce('k:b', async () => {
      extra += 1;
      return principal(2);
    });
    assert.equal(extra, 0, 'shares the newer verification');
    newer.resolve(principal(2));
    assert.equal(await shared, await newerCheck);
  });

  it('does not store a verification that an invalidation overtook', () => {
    const cache = new CredentialCache();
    const startedAt = cache.generation;
    cache.invalidateLocal(1); // e.g. the agent's role changed while its key was being verified
    cache.set('k:a', principal(1), startedAt, 0, 0);
    assert.equal(cache.get('k:a', 1), undefined);
    const fresh = cache.generation;
    cache.set('k:a', principal(1), fresh, 0, 0);
    assert.equal(cache.get('k:a', 1)?.principal.userId, 1);
    cache.deleteKey('k:b'); // a logout elsewhere: also an invalidation
    cache.set('k:c', principal(3), fresh, 0, 0);
    assert.equal(cache.get('k:c', 1), undefined);
  });

  it("asks for a renewal only in the entry's last seconds, and not while one is under way", async () => {
    const cache = new CredentialCache(30_000, 5_000);
    cache.set('k:a', principal(1), cache.generation, 0, 0);
    const entry = cache.get('k:a', 0);
    assert.ok(entry);
    assert.equal(cache.needsRefresh('k:a', entry, 24_999), false);
    assert.equal(cache.needsRefresh('k:a', entry, 25_000), true);
    const gate = pending();
    const renewal = cache.verifyOnce('k:a', () => gate.promise);
    assert.equal(cache.needsRefresh('k:a', entry, 26_000), false, 'a renewal is under way');
    gate.resolve(principal(1));
    await renewal;
    assert.equal(cache.get('k:a', 30_000), undefined, 'the entry ends at its time whatever happens');
  });

  it("keeps the entry's hard end (a session's expiry)", () => {
    const cache = new CredentialCache(30_000, 5_000);
    cache.set('s:a', principal(1), cache.generation, 0, 0, 10_000);
    assert.ok(cache.get('s:a', 9_999));
    assert.equal(cache.get('s:a', 10_000), undefined);
  });
});
