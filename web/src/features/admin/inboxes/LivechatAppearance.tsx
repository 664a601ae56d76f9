// How the live chat looks and greets: brand, logo, colours, the launcher, texts; beside a live
// preview of the widget: the real chat frame and launcher, fed these very settings (WidgetPreview).
import { useState } from 'react';
import type { PreviewView } from '../../../../../widget/src/protocol.ts';
import { t } from '../../../i18n/t';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Input, Textarea } from '../../../ui/Input';
import { Card } from '../../../ui/Page';
import { Select } from '../../../ui/Select';
import { Switch } from '../../../ui/Switch';
import type { LivechatConfig, TabProps } from './draft';
import { WidgetPreview } from './WidgetPreview';

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The contrast ratio of white text on a #RGB or #RRGGBB colour (WCAG 2 relative luminance). */
export function contrastWithWhite(hex: string): number | null {
  if (!HEX.test(hex)) return null;
  const digits = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c) : [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)];
  const [r, g, b] = digits.map((pair) => {
    const c = Number.parseInt(pair, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  return 1.05 / (luminance + 0.05);
}

/** A colour as a swatch picker and its hex text side by side (the text may be empty when allowed). */
function ColorField({
  label,
  value,
  onChange,
  error,
  hint,
  fallback = '#2563eb',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  hint?: string;
  /** The colour in effect while the field is empty. */
  fallback?: string;
}) {
  const shown = HEX.test(value) ? value : fallback;
  const full = HEX.test(shown) && shown.length === 4 ? `#${[...shown.slice(1)].map((c) => c + c).join('')}` : shown;
  // The widget writes white on this colour (its header, buttons, launcher): warn below AA's 4.5:1.
  // An empty field inherits, and its colour is judged where it is set.
  const ratio = contrastWithWhite(value);
  const warning = ratio !== null && ratio < 4.5 ? t('admin.inboxes.lowContrast', { ratio: ratio.toFixed(1) }) : undefined;
  return (
    <div className="color-field">
      <Field label={label} hint={warning ?? hint} error={error}>
        <Input value={value} onChange={(e) => onChange(e.target.value.trim())} maxLength={7} placeholder={fallback} spellCheck={false} />
      </Field>
      <input
        type="color"
        className="color-field__swatch"
        value={HEX.test(full) ? full : '#2563eb'}
        onChange={(e) => onChange(e.target.value)}
        aria-label={t('admin.inboxes.pickColor', { label })}
      />
    </div>
  );
}

function Texts({ config, edit, errors }: TabProps<LivechatConfig>) {
  const text = (
    name: 'greeting_message' | 'introduction_message' | 'chat_introduction' | 'chat_reply_expectation_message',
    multiline = false,
  ) => (
    <Field label={t(`admin.inboxes.${name}`)} error={errors.field(`config.${name}`)}>
      {multiline ? (
        <Textarea
          value={config[name]}
          onChange={(e) =>
            edit((c) => {
              c[name] = e.target.value;
            })
          }
          rows={2}
        />
      ) : (
        <Input
          value={config[name]}
          onChange={(e) =>
            edit((c) => {
              c[name] = e.target.value;
            })
          }
        />
      )}
    </Field>
  );
  return (
    <Card title={t('admin.inboxes.texts')}>
      <div className="form-stack">
        {text('greeting_message')}
        {text('introduction_message', true)}
        {text('chat_introduction', true)}
        {text('chat_reply_expectation_message')}
        <Switch
          checked={config.notice_banner.enabled}
          onCheckedChange={(value) =>
            edit((c) => {
              c.notice_banner.enabled = value;
            })
          }
          label={t('admin.inboxes.noticeBanner')}
        />
        {config.notice_banner.enabled ? (
          <Field label={t('admin.inboxes.noticeText')} error={errors.field('config.notice_banner')}>
            <Input
              value={config.notice_banner.text}
              onChange={(e) =>
                edit((c) => {
                  c.notice_banner.text = e.target.value;
                })
              }
            />
          </Field>
        ) : null}
      </div>
    </Card>
  );
}

const VIEWS: PreviewView[] = ['home', 'prechat', 'conversation'];

export function LivechatAppearance(props: TabProps<LivechatConfig> & { inboxId: number }) {
  const { config, edit, errors, inboxId } = props;
  const [open, setOpen] = useState(true);
  const [view, setView] = useState<PreviewView>('home');
  return (
    <div className="appearance">
      <div className="form-stack appearance__form">
        <Card title={t('admin.inboxes.brand')}>
          <div className="form-grid">
            <Field label={t('admin.inboxes.brandName')} error={errors.field('config.brand_name')}>
              <Input
                value={config.brand_name}
                onChange={(e) =>
                  edit((c) => {
                    c.brand_name = e.target.value;
                  })
                }
                maxLength={100}
              />
            </Field>
            <ColorField
              label={t('admin.inboxes.primaryColor')}
              value={config.colors.primary}
              onChange={(v) =>
                edit((c) => {
                  c.colors.primary = v;
                })
              }
              error={errors.field('config.colors')}
            />
            <Field label={t('admin.inboxes.logoUrl')} hint={t('admin.inboxes.urlHint')} error={errors.field('config.logo_url')}>
              <Input
                type="url"
                value={config.logo_url}
                onChange={(e) =>
                  edit((c) => {
                    c.logo_url = e.target.value.trim();
                  })
                }
                placeholder="https://"
              />
            </Field>
            <Field label={t('admin.inboxes.websiteUrl')} hint={t('admin.inboxes.urlHint')} error={errors.field('config.website_url')}>
              <Input
                type="url"
                value={config.website_url}
                onChange={(e) =>
                  edit((c) => {
                    c.website_url = e.target.value.trim();
                  })
                }
                placeholder="https://"
              />
            </Field>
            <Field label={t('admin.inboxes.language')} hint={t('admin.inboxes.languageHint')} error={errors.field('config.language')}>
              <Input
                value={config.language}
                onChange={(e) =>
                  edit((c) => {
                    c.language = e.target.value.trim();
                  })
                }
                maxLength={35}
              />
            </Field>
          </div>
          <div className="form-stack switches">
            <Switch
              checked={config.dark_mode}
              onCheckedChange={(v) =>
                edit((c) => {
                  c.dark_mode = v;
                })
              }
              label={t('admin.inboxes.darkMode')}
            />
            <Switch
              checked={config.show_powered_by}
              onCheckedChange={(v) =>
                edit((c) => {
                  c.show_powered_by = v;
                })
              }
              label={t('admin.inboxes.poweredByShow')}
            />
          </div>
        </Card>
        <Card title={t('admin.inboxes.launcher')}>
          <div className="form-grid">
            <Field label={t('admin.inboxes.position')} error={errors.field('config.launcher.position')}>
              <Select
                value={config.launcher.position}
                onValueChange={(v) =>
                  edit((c) => {
                    c.launcher.position = v === 'left' ? 'left' : 'right';
                  })
                }
                options={[
                  { value: 'right', label: t('admin.inboxes.position.right') },
                  { value: 'left', label: t('admin.inboxes.position.left') },
                ]}
              />
            </Field>
            <ColorField
              label={t('admin.inboxes.launcherColor')}
              hint={t('admin.inboxes.launcherColorHint')}
              value={config.launcher.color}
              fallback={config.colors.primary}
              onChange={(v) =>
                edit((c) => {
                  c.launcher.color = v;
                })
              }
              error={errors.field('config.launcher.color')}
            />
            <Field label={t('admin.inboxes.spacingSide')} error={errors.field('config.launcher.spacing.side')}>
              <Input
                type="number"
                min={0}
                max={200}
                value={String(config.launcher.spacing.side)}
                onChange={(e) =>
                  edit((c) => {
                    c.launcher.spacing.side = Number(e.target.value);
                  })
                }
              />
            </Field>
            <Field label={t('admin.inboxes.spacingBottom')} error={errors.field('config.launcher.spacing.bottom')}>
              <Input
                type="number"
                min={0}
                max={200}
                value={String(config.launcher.spacing.bottom)}
                onChange={(e) =>
                  edit((c) => {
                    c.launcher.spacing.bottom = Number(e.target.value);
                  })
                }
              />
            </Field>
            <div className="form-grid__full">
              <Field
                label={t('admin.inboxes.launcherLogo')}
                hint={t('admin.inboxes.urlHint')}
                error={errors.field('config.launcher.logo_url')}
              >
                <Input
                  type="url"
                  value={config.launcher.logo_url}
                  onChange={(e) =>
                    edit((c) => {
                      c.launcher.logo_url = e.target.value.trim();
                    })
                  }
                  placeholder="https://"
                />
              </Field>
            </div>
          </div>
        </Card>
        <Texts {...props} />
      </div>
      <div className="appearance__preview">
        <WidgetPreview inboxId={inboxId} config={config} open={open} onToggle={() => setOpen(!open)} view={view} />
        <fieldset className="appearance__views">
          <legend className="visually-hidden">{t('admin.inboxes.previewView')}</legend>
          {VIEWS.map((name) => (
            <Button
              key={name}
              size="sm"
              variant={view === name ? 'primary' : 'secondary'}
              aria-pressed={view === name}
              onClick={() => {
                setView(name);
                setOpen(true);
              }}
            >
              {t(`admin.inboxes.previewView.${name}`)}
            </Button>
          ))}
        </fieldset>
        <Button size="sm" onClick={() => setOpen(!open)}>
          {open ? t('admin.inboxes.previewClosed') : t('admin.inboxes.previewOpen')}
        </Button>
      </div>
    </div>
  );
}
