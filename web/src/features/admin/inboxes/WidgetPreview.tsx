// The live preview of the live-chat widget beside its settings: the REAL chat frame in preview
// mode (widget/src/frame/preview.ts, an iframe of /widget/frame/?preview=1) and the launcher drawn
// by the loader's own code (widget/src/launcher-look.ts). Both are fed what the widget would get
// from the server if the draft were saved: POST /inboxes/{id}/widget-preview, asked again as the
// draft changes (debounced), nothing saved. A draft the server refuses (a half-typed colour)
// leaves the last good preview on screen, with a note.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  drawLauncher,
  type LauncherSettings,
  launcherLabel,
  launcherLook,
  setLauncherFace,
} from '../../../../../widget/src/launcher-look.ts';
import type { PreviewView } from '../../../../../widget/src/protocol.ts';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n/t';
import { useDebounced } from '../../contacts/useDebounced';
import type { LivechatConfig } from './draft';

/** The stage is a small page drawn at this scale: the real panel (380 × up to 640 px) and launcher. */
const PAGE = { width: 440, height: 720 };
const SCALE = 0.75;
// The frame learns its parent's origin from the browser where it can (ancestorOrigins) and from
// `origin` elsewhere (Firefox); it renders only for Parley's own.
const FRAME_SRC = `/widget/frame/?preview=1&origin=${encodeURIComponent(location.origin)}`;

type Preview = { settings: unknown; launcher: LauncherSettings };

/** The loader's launcher, drawn by the loader's code into a shadow root of its own. */
function Launcher({ settings, open, onToggle }: { settings: LauncherSettings; open: boolean; onToggle: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const toggle = useRef(onToggle);
  toggle.current = onToggle;
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
    root.replaceChildren();
    const look = launcherLook(settings);
    const { button, face } = drawLauncher(root, look, 'absolute');
    setLauncherFace(face, look, open);
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', launcherLabel(open, 0));
    button.onclick = () => toggle.current();
  }, [settings, open]);
  return <div ref={host} className="widget-preview__launcher" data-testid="preview-launcher" />;
}

export function WidgetPreview({
  inboxId,
  config,
  open,
  onToggle,
  view,
}: {
  inboxId: number;
  config: LivechatConfig;
  open: boolean;
  onToggle: () => void;
  view: PreviewView;
}) {
  const draft = useDebounced(config, 250);
  const preview = useQuery({
    queryKey: keys.admin.widgetPreview(inboxId, draft),
    queryFn: () => {
      // The widget never shows the secret: leaving it out keeps a preview working even when the
      // stored one can no longer be decrypted (the mask would then be refused).
      const { secret: _secret, ...body } = draft;
      return unwrap(api.POST('/api/v1/inboxes/{id}/widget-preview', { params: { path: { id: inboxId } }, body })) as Promise<Preview>;
    },
    placeholderData: keepPreviousData,
    retry: false,
  });
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);

  // The frame says `ready` once it listens; only Parley's own frame is heard.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { parley?: unknown; type?: unknown } | null;
      if (event.source !== frame.current?.contentWindow || event.origin !== location.origin) return;
      if (data?.parley === 1 && data.type === 'ready') setReady(true);
    };
    addEventListener('message', onMessage);
    return () => removeEventListener('message', onMessage);
  }, []);

  const data = preview.data;
  useEffect(() => {
    if (!ready || !data) return;
    frame.current?.contentWindow?.postMessage({ parley: 1, type: 'preview', data: { settings: data.settings, view } }, location.origin);
  }, [ready, data, view]);

  const look = data ? launcherLook(data.launcher) : null;
  const panel = look
    ? {
        [look.side]: `${look.offset}px`,
        bottom: `${look.bottom + 68}px`,
        height: `${Math.min(640, PAGE.height - look.bottom - 88)}px`,
      }
    : {};
  return (
    <figure className="widget-preview" aria-label={t('admin.inboxes.preview')}>
      <div className="widget-preview__box" style={{ width: PAGE.width * SCALE, height: PAGE.height * SCALE }}>
        <div className="widget-preview__page" style={{ ...PAGE, transform: `scale(${SCALE})` }}>
          <div className="widget-preview__site" aria-hidden>
            <span />
            <span />
            <span />
          </div>
          <div className="widget-preview__panel" style={panel} hidden={!open || !data}>
            <iframe ref={frame} title={t('admin.inboxes.preview')} src={FRAME_SRC} data-testid="preview-frame" />
          </div>
          {data ? <Launcher settings={data.launcher} open={open} onToggle={onToggle} /> : null}
        </div>
      </div>
      <figcaption className="cell-muted">
        {preview.isError ? <output>{t('admin.inboxes.previewStale')} </output> : null}
        {t('admin.inboxes.previewHint')}
      </figcaption>
    </figure>
  );
}
