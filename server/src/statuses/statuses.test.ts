import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, errorOf, type TestApp } from '../../test/helpers.ts';

type Status = { id: number; created_at: string; updated_at: string; name: string; category: string; is_system: boolean };
type Envelope<T> = { status: string; data: T };

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

describe('statuses', () => {
  let t: TestApp;
  let agent: Caller;
  let statusManager: Caller;

  async function list(as?: Caller): Promise<Status[]> {
    const statuses = dataOf<Status[]>(await t.call({ method: 'GET', url: '/api/v1/statuses', ...(as ? { as } : {}) }));
    assert.ok(Array.isArray(statuses));
    return statuses;
  }
  async function byName(name: string): Promise<Status> {
    const status = (await list()).find((s) => s.name === name);
    assert.ok(status, `status ${name} is listed`);
    return status;
  }
  const create = async (name: string, category: string, as?: Caller) =>
    dataOf<Status>(await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name, category }, ...(as ? { as } : {}) }));

  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
    // A custom role holding only status:manage: the permission alone must be enough.
    statusManager = await agentWith(t, ['status:manage']);
  });
  after(() => t.close());

  describe('GET /api/v1/statuses', () => {
    it('lists the four seeded system statuses with their categories, for any agent', async () => {
      for (const caller of [t.admin, agent]) {
        const statuses = await list(caller);
        assert.deepEqual(
          statuses.slice(0, 4).map((s) => [s.name, s.category, s.is_system]),
          [
            ['Open', 'open', true],
            ['Snoozed', 'waiting', true],
            ['Resolved', 'resolved', true],
            ['Closed', 'resolved', true],
          ],
        );
        for (const s of statuses) {
          assert.deepEqual(Object.keys(s).sort(), ['category', 'created_at', 'id', 'is_system', 'name', 'updated_at']);
          assert.equal(typeof s.id, 'number');
          assert.match(s.created_at, ISO);
          assert.match(s.updated_at, ISO);
        }
      }
    });

    it('is 401 without credentials', async () => {
      assertError(await t.call({ method: 'GET', url: '/api/v1/statuses', as: null }), 401, 'UnauthorizedException');
    });
  });

  describe('POST /api/v1/statuses', () => {
    it('creates a status: 200, data has id, created_at and name (trimmed), not a system status', async () => {
      const res = await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name: '  Pending customer ', category: 'waiting' } });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as Envelope<Status>;
      assert.equal(body.status, 'success');
      assert.equal(typeof body.data.id, 'number');
      assert.match(body.data.created_at, ISO);
      assert.equal(body.data.name, 'Pending customer');
      assert.equal(body.data.category, 'waiting');
      assert.equal(body.data.is_system, false);
      const listed = await byName('Pending customer');
      assert.equal(listed.id, body.data.id);
      assert.equal(listed.is_system, false);
    });

    it('accepts each category open, waiting and resolved', async () => {
      for (const category of ['open', 'waiting', 'resolved']) {
        const created = await create(`Cat ${category}`, category);
        assert.equal(created.category, category);
      }
    });

    it('refuses any other category with 400 naming the field', async () => {
      for (const category of ['closed', 'Open', 'OPEN', '', 'snoozed', 1, null, ['open']]) {
        const res = await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name: `Bad ${String(category)}`, category } });
        const body = assertError(res, 400, 'InputException');
        assert.match(body.message, /category/, JSON.stringify(category));
      }
      assert.ok(!(await list()).some((s) => s.name.startsWith('Bad ')));
    });

    it('refuses a missing name or category, a blank name or a non-string name with 400', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ category: 'open' }, /name/],
        [{ name: 'No category' }, /category/],
        [{}, /name|category/],
        [{ name: '', category: 'open' }, /name/],
        [{ name: '   ', category: 'open' }, /name/],
        [{ name: 5, category: 'open' }, /name/],
      ];
      for (const [payload, field] of cases) {
        const body = assertError(await t.call({ method: 'POST', url: '/api/v1/statuses', payload }), 400, 'InputException');
        assert.match(body.message, field, JSON.stringify(payload));
      }
      assert.ok(!(await list()).some((s) => s.name === 'No category'));
    });

    it('refuses a name over 50 characters with 400, but counts after trimming', async () => {
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name: 'x'.repeat(51), category: 'open' } }),
        400,
        'InputException',
      );
      const fifty = await create(`  ${'f'.repeat(50)}  `, 'open');
      assert.equal(fifty.name, 'f'.repeat(50));
    });

    it('refuses a duplicate name with 409, case-insensitively, including the system ones', async () => {
      for (const name of ['open', 'CLOSED', ' Snoozed ', 'pending CUSTOMER']) {
        assertError(
          await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name, category: 'open' } }),
          409,
          'ConflictException',
        );
      }
      const count = (await list()).filter((s) => s.name.toLowerCase() === 'open').length;
      assert.equal(count, 1);
    });

    it('is 401 without credentials and 403 without status:manage', async () => {
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name: 'Anon', category: 'open' }, as: null }),
        401,
        'UnauthorizedException',
      );
      assertError(
        await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name: 'Sneaky', category: 'open' }, as: agent }),
        403,
        'PermissionException',
      );
      assert.ok(!(await list()).some((s) => s.name === 'Anon' || s.name === 'Sneaky'));
      // status:manage alone is enough
      const created = await create('Keeper made', 'resolved', statusManager);
      assert.equal(created.name, 'Keeper made');
    });
  });

  describe('PUT /api/v1/statuses/{id}', () => {
    it('renames and recategorises a custom status', async () => {
      const custom = await create('On hold', 'waiting');
      const renamed = await t.call({ method: 'PUT', url: `/api/v1/statuses/${custom.id}`, payload: { name: ' Parked ' } });
      assert.equal(renamed.statusCode, 200, renamed.body);
      const data = (renamed.json() as Envelope<Status>).data;
      assert.equal(data.id, custom.id);
      assert.equal(data.name, 'Parked');
      assert.equal(data.category, 'waiting', 'a partial update keeps the category');
      assert.equal(data.is_system, false);

      const recategorised = await t.call({ method: 'PUT', url: `/api/v1/statuses/${custom.id}`, payload: { category: 'resolved' } });
      assert.equal(recategorised.statusCode, 200, recategorised.body);
      const after = (recategorised.json() as Envelope<Status>).data;
      assert.equal(after.name, 'Parked', 'a partial update keeps the name');
      assert.equal(after.category, 'resolved');
      assert.equal((await byName('Parked')).category, 'resolved');

      const both = await t.call({ method: 'PUT', url: `/api/v1/statuses/${custom.id}`, payload: { name: 'parked', category: 'open' } });
      assert.equal(both.statusCode, 200, both.body);
      assert.deepEqual([(both.json() as Envelope<Status>).data.name, (both.json() as Envelope<Status>).data.category], ['parked', 'open']);
    });

    it('refuses to rename or recategorise a system status with 422 DataException', async () => {
      for (const system of ['Open', 'Snoozed', 'Resolved', 'Closed']) {
        const current = await byName(system);
        const attempts: Array<Record<string, unknown>> = [
          { name: `${system} renamed` },
          { name: system.toUpperCase() },
          { category: current.category === 'open' ? 'waiting' : 'open' },
          { name: system, category: current.category === 'resolved' ? 'waiting' : 'resolved' },
        ];
        for (const payload of attempts) {
          const res = await t.call({ method: 'PUT', url: `/api/v1/statuses/${current.id}`, payload });
          assertError(res, 422, 'DataException');
        }
        const after = await byName(system);
        assert.equal(after.category, current.category);
        assert.equal(after.is_system, true);
      }
    });

    it('is 404 for an unknown or malformed id', async () => {
      assertError(await t.call({ method: 'PUT', url: '/api/v1/statuses/987654', payload: { name: 'Ghost' } }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'PUT', url: '/api/v1/statuses/ghost', payload: { name: 'Ghost' } }), 404, 'NotFoundException');
      assert.ok(!(await list()).some((s) => s.name === 'Ghost'));
    });

    it('is 409 when the new name is taken by another status, case-insensitively', async () => {
      const custom = await create('Escalated', 'open');
      await create('Blocked', 'waiting');
      for (const name of ['Blocked', 'blocked', 'Resolved', 'CLOSED']) {
        assertError(await t.call({ method: 'PUT', url: `/api/v1/statuses/${custom.id}`, payload: { name } }), 409, 'ConflictException');
      }
      assert.equal((await byName('Escalated')).id, custom.id);
    });

    it('is 400 for a blank name or an unknown category', async () => {
      const custom = await create('Needs triage', 'open');
      for (const payload of [{ name: '' }, { name: '  ' }, { category: 'done' }, { name: 3 }]) {
        assertError(await t.call({ method: 'PUT', url: `/api/v1/statuses/${custom.id}`, payload }), 400, 'InputException');
      }
      const after = await byName('Needs triage');
      assert.equal(after.category, 'open');
    });

    it('is 401 without credentials and 403 without status:manage', async () => {
      const custom = await byName('Escalated');
      assertError(
        await t.call({ method: 'PUT', url: `/api/v1/statuses/${custom.id}`, payload: { name: 'X' }, as: null }),
        401,
        'UnauthorizedException',
      );
      assertError(
        await t.call({ method: 'PUT', url: `/api/v1/statuses/${custom.id}`, payload: { name: 'X' }, as: agent }),
        403,
        'PermissionException',
      );
      assert.equal((await byName('Escalated')).id, custom.id);
    });
  });

  describe('DELETE /api/v1/statuses/{id}', () => {
    it('deletes a custom status: true, gone from the list, a second delete is 404', async () => {
      const custom = await create('Temporary', 'waiting');
      const res = await t.call({ method: 'DELETE', url: `/api/v1/statuses/${custom.id}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { status: 'success', data: true });
      assert.ok(!(await list()).some((s) => s.id === custom.id));
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/statuses/${custom.id}` }), 404, 'NotFoundException');
      // the name can be used again
      await create('temporary', 'open');
    });

    it('refuses to delete a system status with 422 DataException', async () => {
      for (const system of ['Open', 'Snoozed', 'Resolved', 'Closed']) {
        const current = await byName(system);
        assertError(await t.call({ method: 'DELETE', url: `/api/v1/statuses/${current.id}` }), 422, 'DataException');
        await byName(system);
      }
    });

    it('refuses to delete a status in use with 422 DataException, and allows it once no conversation uses it', async () => {
      const custom = await create('Escalation review', 'open');
      const inbox = await t.call({
        method: 'POST',
        url: '/api/v1/inboxes',
        payload: { name: 'Status inbox', channel: 'livechat', config: {} },
      });
      assert.equal(inbox.statusCode, 200, inbox.body);
      const inboxId = (inbox.json() as { data: { id: number } }).data.id;
      const started = await t.call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: { inbox_id: inboxId, contact_email: `status-${process.pid}@example.com`, content: 'hi', initiator: 'contact' },
      });
      assert.equal(started.statusCode, 200, started.body);
      const uuid = (started.json() as { data: { uuid: string } }).data.uuid;
      const moved = await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/status`, payload: { status: 'Escalation review' } });
      assert.equal(moved.statusCode, 200, moved.body);
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/statuses/${custom.id}` }), 422, 'DataException');
      await byName('Escalation review');
      assert.equal(
        (await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/status`, payload: { status: 'Open' } })).statusCode,
        200,
      );
      assert.equal((await t.call({ method: 'DELETE', url: `/api/v1/statuses/${custom.id}` })).statusCode, 200);
    });

    it('is 404 for an unknown or malformed id', async () => {
      assertError(await t.call({ method: 'DELETE', url: '/api/v1/statuses/987654' }), 404, 'NotFoundException');
      assertError(await t.call({ method: 'DELETE', url: '/api/v1/statuses/abc' }), 404, 'NotFoundException');
    });

    it('is 401 without credentials and 403 without status:manage', async () => {
      const custom = await create('Keep me', 'open');
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/statuses/${custom.id}`, as: null }), 401, 'UnauthorizedException');
      assertError(await t.call({ method: 'DELETE', url: `/api/v1/statuses/${custom.id}`, as: agent }), 403, 'PermissionException');
      await byName('Keep me');
      const res = await t.call({ method: 'DELETE', url: `/api/v1/statuses/${custom.id}`, as: statusManager });
      assert.equal(res.statusCode, 200, res.body);
    });
  });

  describe('GET /api/v1/priorities', () => {
    it('lists Low, Medium, High, Urgent in that order, for any agent', async () => {
      for (const caller of [t.admin, agent]) {
        const res = await t.call({ method: 'GET', url: '/api/v1/priorities', as: caller });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json() as Envelope<Array<{ id: number; name: string; created_at: string }>>;
        assert.equal(body.status, 'success');
        assert.deepEqual(
          body.data.map((p) => p.name),
          ['Low', 'Medium', 'High', 'Urgent'],
        );
        for (const p of body.data) {
          assert.equal(typeof p.id, 'number');
          assert.match(p.created_at, ISO);
        }
      }
    });

    it('is 401 without credentials and read-only (405 on POST)', async () => {
      assertError(await t.call({ method: 'GET', url: '/api/v1/priorities', as: null }), 401, 'UnauthorizedException');
      const res = await t.call({ method: 'POST', url: '/api/v1/priorities', payload: { name: 'Critical' } });
      assert.equal(res.statusCode, 405, res.body);
      errorOf(res);
    });
  });
});
