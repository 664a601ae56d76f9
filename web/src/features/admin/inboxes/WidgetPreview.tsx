// A preview of the live-chat widget drawn from the settings being edited, as the real widget
// (widget/: the loader's launcher and the frame's home screen) shows them: the launcher in its
// corner with its colour, logo and spacing, and the open chat with the brand, greeting,
// introduction, notice banner, reply expectation, start button and "powered by".
import type { CSSProperties } from 'react';
import { t } from '../../../i18n/t';
import { DEFAULT_PERMISSIONS, type LivechatConfig } from './draft';
import './preview.css';

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
const URL_OK = /^https?:\/\//i;

export function WidgetPreview({ config, open = true }: { config: LivechatConfig; open?: boolean }) {
  const primary = HEX.test(config.colors.primary) ? config.colors.primary : '#2563eb';
  const launcherColor = HEX.test(config.launcher.color) ? config.launcher.color : primary;
  const side = config.launcher.position === 'left' ? 'left' : 'right';
  // The stage is a scaled-down page: spacing is drawn at half size, clamped like the loader does.
  const offset = Math.max(0, Math.min(200, config.launcher.spacing.side)) / 2;
  const bottom = Math.max(0, Math.min(200, config.launcher.spacing.bottom)) / 2;
  const rules = config.visitors ?? DEFAULT_PERMISSIONS;
  const vars: CSSProperties & Record<`--${string}`, string> = { '--wp-primary': primary };
  const logo = URL_OK.test(config.logo_url) ? config.logo_url : null;
  const launcherLogo = URL_OK.test(config.launcher.logo_url) ? config.launcher.logo_url : null;
  return (
    <figure className="widget-preview" aria-label={t('admin.inboxes.preview')}>
      <div className={`wp-stage${config.dark_mode ? ' wp-stage--dark' : ''}`} style={vars}>
        <div className="wp-page" aria-hidden>
          <span />
          <span />
          <span />
        </div>
        {open ? (
          <div className="wp-window" style={{ [side]: offset, bottom: bottom + 44 }}>
            <div className="wp-top">
              {logo ? <img className="wp-logo" src={logo} alt="" /> : null}
              <strong className="wp-brand">{config.brand_name || ' '}</strong>
              <span className="wp-close" aria-hidden>
                ✕
              </span>
            </div>
            {config.notice_banner.enabled && config.notice_banner.text ? <p className="wp-banner">{config.notice_banner.text}</p> : null}
            <div className="wp-body">
              <p className="wp-greeting">{config.greeting_message}</p>
              {config.introduction_message ? <p className="wp-text">{config.introduction_message}</p> : null}
              {config.chat_introduction ? <p className="wp-text wp-muted">{config.chat_introduction}</p> : null}
              {config.chat_reply_expectation_message ? <p className="wp-text">{config.chat_reply_expectation_message}</p> : null}
              {rules.allow_start_conversation ? <span className="wp-button">{rules.start_conversation_button_text}</span> : null}
            </div>
            {config.show_powered_by ? <p className="wp-powered">{t('admin.inboxes.poweredBy')}</p> : null}
          </div>
        ) : null}
        <span className="wp-launcher" style={{ [side]: offset, bottom, background: launcherColor }}>
          {open ? (
            <span aria-hidden>✕</span>
          ) : launcherLogo ? (
            <img src={launcherLogo} alt="" />
          ) : (
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <title>{t('admin.inboxes.preview')}</title>
              <path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-5 4V6a2 2 0 0 1 1-2z" />
            </svg>
          )}
        </span>
      </div>
      <figcaption className="cell-muted">{t('admin.inboxes.previewHint')}</figcaption>
    </figure>
  );
}
