import { Type } from 'typebox';
import { Nullable } from '../http/schemas.ts';

export const GeneralSettingsRecord = Type.Object(
  {
    business_hours_id: Nullable(Type.Integer({ description: 'The default business hours (teams without their own use them); null: none' })),
    timezone: Type.String({ description: 'IANA time zone of reports; TIMEZONE until one is set' }),
  },
  { title: 'GeneralSettings' },
);

export const UpdateGeneralSettingsBody = Type.Object(
  {
    business_hours_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 2147483647 }))),
    timezone: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Paris; null: follow TIMEZONE again' })),
    ),
  },
  { additionalProperties: false, description: 'Partial: fields left out keep their value' },
);
