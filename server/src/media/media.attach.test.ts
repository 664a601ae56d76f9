// Media and messages: attachMediaToMessage and attachmentsByMessage, storeMedia (the channels'
// path), and the purge of orphan uploads.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { buildTestApp, type Caller, fakeClock, type TestApp } from '../../test/helpers.ts';
import { fails, file, filesUnder, JPEG, makeMessage, mediaCalls, mediaRows, PNG, uploadsDir } from '../../test/media.ts';
import { attachMediaToMessage, attachmentsByMessage, purgeOrphanMedia, storeMedia } from './media.service.ts';
import { signedMediaUrl } from './media.signing.ts';

describe('media (local disk storage)', () => {
  const clock = fakeClock();
  let t: TestApp;
  let writer: Caller;

  before(async () => {
    t = await buildTestApp({ clock });
    writer = await t.makeAgent({ roles: ['Agent'] });
  });
  after(() => t.close());

  const { uploaded, download } = mediaCalls(() => t);

  describe('attachMediaToMessage and attachmentsByMessage', () => {
    it('attaches a caller’s unattached uploads to a message and lists them in upload order', async () => {
      const messageId = await makeMessage(t);
      const files = await uploaded([file('one.txt', '1'), file('two.png', PNG, 'image/png'), file('three.txt', '333')], writer);
      // Attach in a different order than uploaded: the listing keeps upload order.
      const uuids = [files[2]!.uuid, files[0]!.uuid, files[1]!.uuid.toUpperCase()];
      await t.deps.db
        .transaction()
        .execute((trx) => attachMediaToMessage(t.deps, trx, { mediaUuids: uuids, uploaderId: writer.id, messageId }));
      const rows = (await mediaRows(t.deps.db)).filter((r) => files.some((f) => f.uuid === r.uuid));
      assert.deepEqual(
        rows.map((r) => r.message_id),
        [messageId, messageId, messageId],
      );

      const other = await makeMessage(t);
      const map = await attachmentsByMessage(t.deps, t.deps.db, [messageId, other]);
      assert.deepEqual([...map.keys()].sort(), [messageId, other].sort());
      assert.deepEqual(map.get(other), []);
      const listed = map.get(messageId) ?? [];
      assert.deepEqual(
        listed.map((a) => [a.name, a.size, a.disposition]),
        [
          ['one.txt', 1, 'attachment'],
          ['two.png', PNG.length, 'inline'],
          ['three.txt', 3, 'attachment'],
        ],
      );
      for (const a of listed) assert.equal((await download(a.url)).statusCode, 200, 'each listed URL is freshly signed');
      assert.deepEqual(await attachmentsByMessage(t.deps, t.deps.db, []), new Map());
    });

    it('reads the attachments of many messages with one query', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const messageId = await makeMessage(t);
        const files = await uploaded([file(`m${i}-a.txt`, 'a'), file(`m${i}-b.txt`, 'b')], writer);
        await attachMediaToMessage(t.deps, t.deps.db, { mediaUuids: files.map((f) => f.uuid), uploaderId: writer.id, messageId });
        ids.push(messageId);
      }
      let queries = 0;
      const counter: KyselyPlugin = {
        transformQuery: (args) => {
          queries += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const map = await attachmentsByMessage(t.deps, t.deps.db.withPlugin(counter), ids);
      assert.equal(queries, 1);
      assert.deepEqual(
        ids.map((id) => map.get(id)?.map((a) => a.name)),
        ids.map((_, i) => [`m${i}-a.txt`, `m${i}-b.txt`]),
      );
    });

    it('refuses unknown, foreign, attached, duplicate, malformed and too many uploads, naming the uuid, and changes nothing', async () => {
      const messageId = await makeMessage(t);
      const [mine, mine2] = await uploaded([file('mine.txt', 'm'), file('mine2.txt', 'm')], writer);
      const [theirs] = await uploaded([file('theirs.txt', 't')]);
      const [attached] = await uploaded([file('attached.txt', 'a')], writer);
      assert.ok(mine && mine2 && theirs && attached);
      await attachMediaToMessage(t.deps, t.deps.db, {
        mediaUuids: [attached.uuid],
        uploaderId: writer.id,
        messageId: await makeMessage(t),
      });
      const unknown = randomUUID();
      const cases: Array<[string[], RegExp]> = [
        [[mine.uuid, unknown], new RegExp(unknown)],
        [[mine.uuid, theirs.uuid], new RegExp(theirs.uuid)],
        [[attached.uuid], new RegExp(`${attached.uuid}.*already attached`)],
        [[mine.uuid, mine.uuid.toUpperCase()], new RegExp(`${mine.uuid}.*twice`)],
        [[mine.uuid, 'not-a-uuid'], /not-a-uuid/],
        [[mine.uuid, "'; drop table media; --"], /not a media uuid/],
        [Array.from({ length: 21 }, () => randomUUID()), /at most 20/],
      ];
      for (const [mediaUuids, pattern] of cases) {
        await assert.rejects(
          t.deps.db.transaction().execute((trx) => attachMediaToMessage(t.deps, trx, { mediaUuids, uploaderId: writer.id, messageId })),
          (error: unknown) => {
            const e = error as { statusCode?: number; errorType?: string; message?: string; data?: { errors?: Array<{ field: string }> } };
            assert.equal(e.statusCode, 400);
            assert.equal(e.errorType, 'InputException');
            assert.equal(e.data?.errors?.[0]?.field, 'attachments');
            assert.match(e.message ?? '', pattern);
            return true;
          },
        );
      }
      const rows = await mediaRows(t.deps.db);
      assert.equal(rows.find((r) => r.uuid === mine.uuid)?.message_id, null, 'nothing attached by a refused call');
      assert.equal(rows.find((r) => r.uuid === theirs.uuid)?.message_id, null);
      // Nothing to attach is fine.
      await attachMediaToMessage(t.deps, t.deps.db, { mediaUuids: [], uploaderId: writer.id, messageId });
    });

    it('lets only one of two messages claim the same upload, even concurrently', async () => {
      const [upload1] = await uploaded([file('race.txt', 'r')], writer);
      assert.ok(upload1);
      const first = await makeMessage(t);
      const second = await makeMessage(t);
      const claim = (messageId: number) =>
        t.deps.db.transaction().execute(async (trx) => {
          await attachMediaToMessage(t.deps, trx, { mediaUuids: [upload1.uuid], uploaderId: writer.id, messageId });
          // Hold the lock a moment so the other claim really waits on it.
          await new Promise((resolve) => setTimeout(resolve, 50));
          return messageId;
        });
      const results = await Promise.allSettled([claim(first), claim(second)]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      assert.equal(won.length, 1);
      assert.equal(lost.length, 1);
      assert.match(String((lost[0] as PromiseRejectedResult).reason.message), /already attached/);
      const row = (await mediaRows(t.deps.db)).find((r) => r.uuid === upload1.uuid);
      assert.equal(row?.message_id, (won[0] as PromiseFulfilledResult<number>).value);
    });
  });

  describe('storeMedia', () => {
    it('stores a buffer for the channels, attached or not, inside the caller’s transaction', async () => {
      const messageId = await makeMessage(t);
      const record = await t.deps.db
        .transaction()
        .execute((trx) =>
          storeMedia(t.deps, trx, { filename: '../inbound/photo.jpg', contentType: 'image/jpeg', data: JPEG, uploaderId: null, messageId }),
        );
      assert.equal(record.name, 'photo.jpg');
      assert.equal(record.content_type, 'image/jpeg');
      assert.equal(record.disposition, 'inline');
      assert.equal(record.size, JPEG.length);
      const response = await download(record.url);
      assert.deepEqual(response.rawPayload, JPEG);
      assert.deepEqual(
        (await attachmentsByMessage(t.deps, t.deps.db, [messageId])).get(messageId)?.map((a) => a.uuid),
        [record.uuid],
      );
      const loose = await storeMedia(t.deps, t.deps.db, {
        filename: 'x.csv',
        contentType: 'text/csv',
        data: Buffer.from('a,b\n'),
        uploaderId: writer.id,
      });
      assert.equal((await mediaRows(t.deps.db)).find((r) => r.uuid === loose.uuid)?.message_id, null);
      await assert.rejects(
        storeMedia(t.deps, t.deps.db, { filename: 'e.txt', contentType: 'text/plain', data: Buffer.alloc(0), uploaderId: null }),
        /empty/,
      );
    });
  });

  describe('purgeOrphanMedia', () => {
    it('removes unattached uploads older than the cut-off, rows and files, and keeps the rest', async () => {
      const start = clock.now();
      try {
        const [old, oldAttached] = await uploaded([file('old.txt', 'o'), file('old-attached.txt', 'a')], writer);
        assert.ok(old && oldAttached);
        await attachMediaToMessage(t.deps, t.deps.db, {
          mediaUuids: [oldAttached.uuid],
          uploaderId: writer.id,
          messageId: await makeMessage(t),
        });
        clock.advance(25 * 3600 * 1000);
        const [fresh] = await uploaded([file('fresh.txt', 'f')], writer);
        assert.ok(fresh);
        const before = await mediaRows(t.deps.db);
        const oldRow = before.find((r) => r.uuid === old.uuid)!;
        const orphansBefore = before.filter((r) => r.message_id === null && r.uuid !== fresh.uuid).length;
        assert.ok(existsSync(join(uploadsDir(t), oldRow.storage_key)));

        // Spool folders of requests that died with the process: one old, one recent.
        for (const name of ['upload-stale', 'upload-fresh']) mkdirSync(join(t.deps.config.dataDir, 'tmp', name, 'x'), { recursive: true });
        utimesSync(join(t.deps.config.dataDir, 'tmp', 'upload-stale'), new Date('2025-01-01'), new Date('2025-01-01'));

        const removed = await purgeOrphanMedia(t.deps, new Date(clock.now().getTime() - 24 * 3600 * 1000));
        assert.equal(removed, orphansBefore);
        const after = await mediaRows(t.deps.db);
        assert.equal(
          after.find((r) => r.uuid === old.uuid),
          undefined,
        );
        assert.ok(after.find((r) => r.uuid === oldAttached.uuid));
        assert.ok(after.find((r) => r.uuid === fresh.uuid));
        assert.ok(after.every((r) => r.message_id !== null || r.uuid === fresh.uuid));
        assert.ok(!existsSync(join(uploadsDir(t), oldRow.storage_key)), 'the stored file is gone');
        assert.deepEqual(
          filesUnder(uploadsDir(t)).filter((f) => f.endsWith('.tmp')),
          [],
        );
        assert.equal(after.length, filesUnder(uploadsDir(t)).length, 'one stored file per row');
        fails(await download(signedMediaUrl(t.deps, old.uuid)), 404, 'NotFoundException');
        assert.deepEqual(
          readdirSync(join(t.deps.config.dataDir, 'tmp')),
          ['upload-fresh'],
          'a crashed request’s old spool folder is removed too',
        );
        assert.equal(await purgeOrphanMedia(t.deps, new Date(clock.now().getTime() - 24 * 3600 * 1000)), 0);
        rmSync(join(t.deps.config.dataDir, 'tmp', 'upload-fresh'), { recursive: true });
      } finally {
        clock.set(start);
      }
    });
  });
});
