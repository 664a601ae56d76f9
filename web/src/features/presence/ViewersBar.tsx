// The conversation header's "who else is here": the other agents viewing it, with a "replying…"
// marker while they write a reply (docs/web.md, "Presence"). Mounting it tells the server this tab
// views the conversation (useViewing), until it unmounts.
import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import { useOtherViewers, useViewing } from './viewers';
import './presence.css';

export function ViewersBar({ uuid }: { uuid: string }) {
  useViewing(uuid);
  const viewers = useOtherViewers(uuid, true);
  if (viewers.length === 0) return null;
  return (
    <ul className="viewers" aria-label={t('presence.viewing')} aria-live="polite">
      {viewers.map((viewer) => (
        <li
          key={viewer.agent_id}
          className={`viewers__item${viewer.replying ? ' viewers__item--replying' : ''}`}
          data-agent-id={viewer.agent_id}
          title={viewer.replying ? t('presence.viewerReplying', { name: viewer.name }) : viewer.name}
        >
          <Avatar name={viewer.name} src={viewer.avatar_url} size="sm" />
          <span className="viewers__name">{viewer.name}</span>
          {viewer.replying ? <span className="viewers__replying">{t('presence.replying')}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** An inbox row's mark: the first other viewer's avatar (what the frames brought since the tab opened). */
export function RowViewers({ uuid }: { uuid: string }) {
  const viewers = useOtherViewers(uuid, false);
  const first = viewers[0];
  if (!first) return null;
  const label = t('presence.rowViewing', { name: viewers.map((v) => v.name).join(', '), n: viewers.length });
  return (
    <span className="row__viewers" role="img" aria-label={label} title={label}>
      <Avatar name={first.name} src={first.avatar_url} size="sm" />
      {viewers.length > 1 ? <span className="row__viewers-more">+{viewers.length - 1}</span> : null}
    </span>
  );
}
