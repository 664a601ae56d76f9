// A searchable time zone picker: an input (a combobox) whose typing filters the IANA zones this
// browser knows (Intl.supportedValuesOf('timeZone')), "new york" finding America/New_York; arrows
// move, Enter or a click chooses, Escape closes the list. Leaving it with a text that is no zone
// puts the last zone chosen back, so what is saved is always one of the list (or empty, when
// `optional`).
import { Popover as RadixPopover } from 'radix-ui';
import { useId, useMemo, useState } from 'react';
import { t } from '../i18n/t';
import { Input } from './Input';

/** At most this many matches are listed: more says "type more". */
const SHOWN = 50;

let zones: string[] | null = null;
export function timeZones(): string[] {
  zones ??= typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  if (!zones.includes('UTC')) zones = [...zones, 'UTC'];
  return zones;
}

const words = (text: string) => text.toLowerCase().replace(/[_/]/g, ' ').trim();

/** The zones matching a search: every word of it appears in the zone's name. */
export function matchZones(search: string, all: readonly string[] = timeZones()): string[] {
  const wanted = words(search).split(/\s+/).filter(Boolean);
  if (wanted.length === 0) return [...all];
  return all.filter((zone) => {
    const name = words(zone);
    return wanted.every((word) => name.includes(word));
  });
}

export interface TimeZonePickerProps {
  value: string;
  /** Called with the zone chosen ('' when cleared and `optional`). */
  onChange: (event: { target: { value: string } }) => void;
  optional?: boolean;
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  'aria-label'?: string;
}

export function TimeZonePicker({ value, onChange, optional = false, ...aria }: TimeZonePickerProps) {
  const listId = useId();
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const shown = text ?? value;
  const matches = useMemo(() => (text === null ? timeZones() : matchZones(text)), [text]);
  const listed = matches.slice(0, SHOWN);

  const choose = (zone: string) => {
    onChange({ target: { value: zone } });
    setText(null);
    setOpen(false);
  };
  const leave = () => {
    setOpen(false);
    if (text === null) return;
    const exact = timeZones().find((zone) => zone.toLowerCase() === text.trim().toLowerCase());
    if (exact) choose(exact);
    else if (optional && text.trim() === '') choose('');
    else setText(null);
  };

  return (
    <RadixPopover.Root open={open && listed.length > 0} onOpenChange={setOpen}>
      <RadixPopover.Anchor asChild>
        <Input
          {...aria}
          role="combobox"
          aria-expanded={open && listed.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && listed[active] ? `${listId}-${active}` : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={optional ? t('timezone.none') : 'Europe/Berlin'}
          value={shown}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={leave}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              setOpen(true);
              const step = event.key === 'ArrowDown' ? 1 : -1;
              setActive((current) => (listed.length === 0 ? 0 : (current + step + listed.length) % listed.length));
            } else if (event.key === 'Enter' && open && listed[active]) {
              event.preventDefault();
              choose(listed[active]);
            } else if (event.key === 'Escape' && open) {
              // Closes the list only, not the dialog around it.
              event.stopPropagation();
              setOpen(false);
            }
          }}
        />
      </RadixPopover.Anchor>
      <RadixPopover.Portal>
        <RadixPopover.Content
          className="ui-popover ui-timezones"
          align="start"
          sideOffset={4}
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => event.preventDefault()}
          onInteractOutside={(event) => {
            if (event.target instanceof Node && document.getElementById(aria.id ?? '')?.contains(event.target)) event.preventDefault();
          }}
        >
          <div id={listId} role="listbox" aria-label={t('timezone.list')} className="ui-timezones__list">
            {listed.map((zone, index) => (
              <div
                key={zone}
                tabIndex={-1}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                data-highlighted={index === active ? '' : undefined}
                className="ui-menu__item ui-timezones__item"
                // Chosen before the input's blur would put the old zone back.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(zone);
                }}
              >
                {zone.replace(/_/g, ' ')}
              </div>
            ))}
            {matches.length > SHOWN ? <p className="ui-timezones__more">{t('timezone.more', { n: matches.length - SHOWN })}</p> : null}
          </div>
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
