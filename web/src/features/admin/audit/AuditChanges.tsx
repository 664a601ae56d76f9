// An audit entry opened: each changed field with its value before and after (objects as indented
// JSON), then where the change came from (client, request id).
import type { Schemas } from '../../../api/client';
import { t } from '../../../i18n/t';

type Entry = Schemas['AuditEntry'];

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return t('audit.empty.value');
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

export function AuditChanges({ entry }: { entry: Entry }) {
  const fields = Object.entries(entry.changes);
  return (
    <div className="audit-details">
      {fields.length === 0 ? (
        <p className="cell-muted">{t('audit.noChanges')}</p>
      ) : (
        <table className="ui-table audit-diff">
          <caption className="visually-hidden">{t('audit.changes')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('audit.field')}</th>
              <th scope="col">{t('audit.before')}</th>
              <th scope="col">{t('audit.after')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map(([field, [before, after]]) => (
              <tr key={field}>
                <th scope="row">
                  <code>{field}</code>
                </th>
                <td className="audit-diff__before">
                  <pre>{shown(before)}</pre>
                </td>
                <td className="audit-diff__after">
                  <pre>{shown(after)}</pre>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <dl className="details">
        {entry.user_agent ? (
          <div className="details__row">
            <dt>{t('audit.userAgent')}</dt>
            <dd>{entry.user_agent}</dd>
          </div>
        ) : null}
        {entry.request_id ? (
          <div className="details__row">
            <dt>{t('audit.requestId')}</dt>
            <dd>
              <code>{entry.request_id}</code>
            </dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}
