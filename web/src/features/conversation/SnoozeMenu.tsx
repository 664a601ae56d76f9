import { useState } from 'react';
import { useStatuses } from '../../api/reference';
import { t } from '../../i18n/t';
import { Button } from '../../ui/Button';
import { Input } from '../../ui/Input';
import { Popover } from '../../ui/Popover';

const PRESETS = [
  ['1h', 'sidebar.snooze.1h'],
  ['4h', 'sidebar.snooze.4h'],
  ['1d', 'sidebar.snooze.1d'],
  ['1w', 'sidebar.snooze.1w'],
] as const;

/** Snooze: a duration the API understands (`4h`, `1w`), or a local date and time. */
export function SnoozeMenu({ onSnooze }: { onSnooze: (status: string, until: string) => void }) {
  const statuses = useStatuses();
  const [open, setOpen] = useState(false);
  const [custom, setCustom] = useState('');
  const snoozed = statuses.data?.find((s) => s.category === 'waiting');
  if (!snoozed) return null;
  const choose = (until: string) => {
    setOpen(false);
    onSnooze(snoozed.name, until);
  };
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      label={t('sidebar.snoozeFor')}
      trigger={
        <Button size="sm" aria-label={t('sidebar.snooze')}>
          {t('sidebar.snooze')}
        </Button>
      }
    >
      <div className="snooze">
        <p className="details__label">{t('sidebar.snoozeFor')}</p>
        {PRESETS.map(([value, label]) => (
          <Button key={value} size="sm" variant="ghost" onClick={() => choose(value)}>
            {t(label)}
          </Button>
        ))}
        <form
          className="snooze__custom"
          onSubmit={(event) => {
            event.preventDefault();
            if (custom) choose(new Date(custom).toISOString());
          }}
        >
          <label className="details__label" htmlFor="snooze-custom">
            {t('sidebar.snooze.custom')}
          </label>
          <Input id="snooze-custom" type="datetime-local" value={custom} onChange={(event) => setCustom(event.target.value)} />
          <Button size="sm" type="submit" disabled={!custom}>
            {t('common.apply')}
          </Button>
        </form>
      </div>
    </Popover>
  );
}
