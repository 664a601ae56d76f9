// Every permission of the server's catalogue has a label and a one-line description in the web
// app's catalogue (web/src/i18n/en-permissions.ts), so the role dialog never shows a raw key: a
// permission added to server/src/auth/permissions.ts without them fails here. GET /permissions is
// asked too, as the dialog does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enPermissions } from '../../web/src/i18n/en-permissions.ts';
import { PERMISSIONS } from '../src/auth/permissions.ts';
import { buildTestApp, dataOf, type TestApp } from './helpers.ts';

const texts: Readonly<Record<string, string>> = enPermissions;

describe("the web app's permission labels", () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('label and describe every permission the API lists', async () => {
    const listed = dataOf<string[]>(await t.call({ method: 'GET', url: '/api/v1/permissions' }));
    assert.deepEqual([...listed].sort(), [...PERMISSIONS].sort());
    const missing = listed.filter((permission) => {
      const label = texts[`permission.${permission}`];
      const hint = texts[`permission.${permission}.hint`];
      return !label?.trim() || !hint?.trim() || label === permission;
    });
    assert.deepEqual(missing, [], 'permissions without a label and description in web/src/i18n/en-permissions.ts');
  });

  it('names no permission the server does not have', () => {
    const known = new Set<string>(PERMISSIONS);
    const stray = Object.keys(texts)
      .map((key) => key.replace(/^permission\./, '').replace(/\.hint$/, ''))
      .filter((permission) => !known.has(permission));
    assert.deepEqual([...new Set(stray)], []);
  });
});
