// The migrated database against what the code and the docs say of it (server/test/schema-drift.ts):
// every column of db/types.ts's `Database` with its nullability and type family, every trigger in
// docs/code-map.md's table. A migration that adds a column or a trigger without them fails here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createConversation } from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { columnDrift, databaseColumns, databaseTriggers, documentedTriggers, triggerDrift, typedColumns } from '../../test/schema-drift.ts';

describe('the migrated schema', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('db/types.ts describes every table and column: nullability and type family', async () => {
    const typed = typedColumns();
    assert.ok(typed.length > 300, `the Database interface was read (${typed.length} columns)`);
    assert.deepEqual(columnDrift(await databaseColumns(t.deps.db), typed), []);
  });

  it('docs/code-map.md lists every trigger, each with the test that guards it', async () => {
    const documented = documentedTriggers();
    assert.deepEqual(
      triggerDrift(
        await databaseTriggers(t.deps.db),
        documented.map((d) => d.name),
      ),
      [],
    );
    for (const { name, test } of documented) assert.match(test, /\.test\.ts/, `${name}: name the test that guards it`);
  });

  it('conversation_counts_truncated: truncating the conversations empties their counts, folded and pending', async () => {
    const scratch = await buildTestApp();
    try {
      await createConversation(scratch);
      await sql`select conversation_counts_fold()`.execute(scratch.deps.db);
      await createConversation(scratch);
      const rows = async () =>
        (
          await sql<{
            n: number;
          }>`select (select count(*) from conversation_counts)::int + (select count(*) from conversation_count_pending)::int as n`.execute(
            scratch.deps.db,
          )
        ).rows[0]?.n;
      assert.ok(((await rows()) ?? 0) >= 2, 'the counts hold the conversations, folded and pending');
      await sql`truncate conversations cascade`.execute(scratch.deps.db);
      assert.equal(await rows(), 0);
    } finally {
      await scratch.close();
    }
  });

  it('a column or a trigger added without its type or its line is reported', async () => {
    await sql`alter table tags add column probe_note text`.execute(t.deps.db);
    await sql`alter table tags alter column name drop not null`.execute(t.deps.db);
    await sql`create function probe_noop() returns trigger language plpgsql as $$ begin return new; end $$`.execute(t.deps.db);
    await sql`create trigger probe_touch before update on tags for each row execute function probe_noop()`.execute(t.deps.db);
    try {
      const problems = columnDrift(await databaseColumns(t.deps.db), typedColumns());
      assert.ok(problems.includes('column tags.probe_note (text) is not in db/types.ts'), problems.join('\n'));
      assert.ok(problems.includes('column tags.name: nullable in the database, not null in db/types.ts'), problems.join('\n'));
      const triggers = triggerDrift(
        await databaseTriggers(t.deps.db),
        documentedTriggers().map((d) => d.name),
      );
      assert.deepEqual(triggers, ['trigger tags.probe_touch is not in docs/code-map.md ("What the database does by itself")']);
    } finally {
      await sql`drop trigger probe_touch on tags`.execute(t.deps.db);
      await sql`drop function probe_noop()`.execute(t.deps.db);
      await sql`alter table tags drop column probe_note`.execute(t.deps.db);
      await sql`alter table tags alter column name set not null`.execute(t.deps.db);
    }
  });
});
