import { Type } from 'typebox';
import { DateTime } from '../http/schemas.ts';

export const MAX_INTERVALS_PER_DAY = 48;
export const MAX_HOLIDAYS = 500;

const OpenTime = Type.String({ pattern: '^(?:[01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM, 00:00 to 23:59, local time' });
const CloseTime = Type.String({
  pattern: '^(?:(?:[01]\\d|2[0-3]):[0-5]\\d|24:00)$',
  description: 'HH:MM, 00:01 to 24:00, after open, local time',
});

export const OpenInterval = Type.Object({ open: OpenTime, close: CloseTime }, { additionalProperties: false });

const Day = Type.Array(OpenInterval, {
  maxItems: MAX_INTERVALS_PER_DAY,
  description: 'Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed',
});
const weekOptions = {
  additionalProperties: false,
  description: 'Per weekday, any number of open intervals; one crossing midnight is written as two (…"24:00" and "00:00"…)',
};

/** In a record: all seven days. */
const WeeklyHours = Type.Object(
  { monday: Day, tuesday: Day, wednesday: Day, thursday: Day, friday: Day, saturday: Day, sunday: Day },
  weekOptions,
);

/** In a request: a day left out is closed. */
const WeeklyHoursInput = Type.Object(
  {
    monday: Type.Optional(Day),
    tuesday: Type.Optional(Day),
    wednesday: Type.Optional(Day),
    thursday: Type.Optional(Day),
    friday: Type.Optional(Day),
    saturday: Type.Optional(Day),
    sunday: Type.Optional(Day),
  },
  weekOptions,
);

const HolidayDate = Type.String({ format: 'date', description: 'YYYY-MM-DD, a local date in the schedule time zone' });

export const HolidayRecord = Type.Object({
  date: HolidayDate,
  name: Type.String(),
  yearly: Type.Boolean({ description: 'Repeats on this month and day every year' }),
});

const HolidayInput = Type.Object(
  {
    date: HolidayDate,
    name: Type.Optional(Type.String({ maxLength: 140 })),
    yearly: Type.Optional(Type.Boolean({ default: false, description: 'Repeats on this month and day every year' })),
  },
  { additionalProperties: false },
);

export const BusinessHoursRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    name: Type.String(),
    description: Type.String(),
    timezone: Type.String({ description: 'IANA time zone of the hours and holidays' }),
    always_open: Type.Boolean({ description: 'Open at every hour; hours and holidays are kept but not used' }),
    hours: WeeklyHours,
    holidays: Type.Array(HolidayRecord, { description: 'Closed local days, by date' }),
  },
  { title: 'BusinessHours' },
);

const fields = {
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  always_open: Type.Optional(Type.Boolean()),
  hours: Type.Optional(WeeklyHoursInput),
  holidays: Type.Optional(Type.Array(HolidayInput, { maxItems: MAX_HOLIDAYS, description: 'Replaces the whole list' })),
};
const Name = Type.String({ minLength: 1, maxLength: 140, pattern: '\\S', description: 'Unique case-insensitively' });
const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Paris' });

export const CreateBusinessHoursBody = Type.Object({ name: Name, timezone: TimeZone, ...fields }, { additionalProperties: false });

export const UpdateBusinessHoursBody = Type.Object(
  { name: Type.Optional(Name), timezone: Type.Optional(TimeZone), ...fields },
  { additionalProperties: false },
);
