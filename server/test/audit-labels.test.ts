// Every action of the audit log's catalogue (server/src/audit/audit.service.ts AUDIT_ACTIONS) has
// a human name in the web app's catalogue (web/src/i18n/en-audit.ts), so the audit screen's rows
// and action filter never show a raw `role.updated`: an action added without one fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enAudit } from '../../web/src/i18n/en-audit.ts';
import { AUDIT_ACTIONS } from '../src/audit/audit.service.ts';

const texts: Readonly<Record<string, unknown>> = enAudit;

describe("the web app's audit action labels", () => {
  it('name every action of the catalogue', () => {
    const missing = AUDIT_ACTIONS.filter((action) => {
      const label = texts[`audit.action.${action}`];
      return typeof label !== 'string' || label.trim() === '' || label === action;
    });
    assert.deepEqual(missing, [], 'actions without a label in web/src/i18n/en-audit.ts');
  });

  it('name no action the server does not have', () => {
    const known = new Set<string>(AUDIT_ACTIONS);
    const stray = Object.keys(texts)
      .filter((key) => key.startsWith('audit.action.'))
      .map((key) => key.slice('audit.action.'.length))
      .filter((action) => !known.has(action));
    assert.deepEqual(stray, []);
  });
});
