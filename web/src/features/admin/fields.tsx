// Form controls the administration screens share: a time zone with suggestions, a choice that
// may be "none", and the reference lists they choose from.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n/t';
import { Input, Textarea } from '../../ui/Input';
import { Select, type SelectOption } from '../../ui/Select';
import { TimeZonePicker } from '../../ui/TimeZonePicker';

const NONE = '__none';

/** An IANA time zone, chosen from the searchable list (ui/TimeZonePicker). */
export const TimezoneInput = TimeZonePicker;

/** One of `options`, or none (null). */
export function OptionalSelect({
  value,
  onChange,
  options,
  noneLabel,
  id,
  ...aria
}: {
  value: number | null;
  onChange: (value: number | null) => void;
  options: ReadonlyArray<{ id: number; name: string }>;
  noneLabel?: string;
  id?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  const choices: SelectOption[] = [
    { value: NONE, label: noneLabel ?? t('common.none') },
    ...options.map((o) => ({ value: String(o.id), label: o.name })),
  ];
  return (
    <Select
      id={id}
      aria-label={aria['aria-label']}
      value={value === null ? NONE : String(value)}
      onValueChange={(next) => onChange(next === NONE ? null : Number(next))}
      options={choices}
    />
  );
}

/** A whole number typed in a text box: '' while empty. */
export function numberOrNull(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : Number.NaN;
}

export const useBusinessHoursList = () =>
  useQuery({ queryKey: keys.admin.businessHours, queryFn: () => unwrap(api.GET('/api/v1/business-hours')), staleTime: 60_000 });
export const useSlaPolicies = () =>
  useQuery({ queryKey: keys.admin.sla, queryFn: () => unwrap(api.GET('/api/v1/sla')), staleTime: 60_000 });
export const useRoles = () => useQuery({ queryKey: keys.admin.roles, queryFn: () => unwrap(api.GET('/api/v1/roles')), staleTime: 60_000 });
export const useFullTeams = () => useQuery({ queryKey: keys.admin.teams, queryFn: () => unwrap(api.GET('/api/v1/teams')) });

/** A list typed one entry per line (or comma-separated on one line); the text is kept as typed. */
export function ListInput({
  value,
  onChange,
  multiline = true,
  ...rest
}: {
  value: readonly string[];
  onChange: (value: string[]) => void;
  multiline?: boolean;
  id?: string;
  placeholder?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}) {
  const joined = value.join(multiline ? '\n' : ', ');
  const [text, setText] = useState(joined);
  // Follow the value when it changes from outside (a discard), not while it matches what is typed.
  useEffect(() => {
    if (listOf(text).join('\n') !== value.join('\n')) setText(joined);
  }, [value, joined, text]);
  const change = (next: string) => {
    setText(next);
    onChange(listOf(next));
  };
  return multiline ? (
    <Textarea value={text} onChange={(e) => change(e.target.value)} rows={4} spellCheck={false} {...rest} />
  ) : (
    <Input value={text} onChange={(e) => change(e.target.value)} spellCheck={false} {...rest} />
  );
}

function listOf(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
}
