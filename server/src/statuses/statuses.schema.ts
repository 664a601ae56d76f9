import { Type } from 'typebox';
import { STATUS_CATEGORIES } from '../db/types.ts';
import { DateTime, StringEnum } from '../http/schemas.ts';

export const StatusCategory = StringEnum(STATUS_CATEGORIES);

export const StatusRecord = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    name: Type.String(),
    category: StatusCategory,
    is_system: Type.Boolean({ description: 'Open, Snoozed, Resolved and Closed cannot be renamed or deleted' }),
  },
  { title: 'ConversationStatus' },
);

const StatusName = Type.String({ description: 'Trimmed of surrounding whitespace, then 1..50 characters; unique case-insensitively' });

export const CreateStatusBody = Type.Object({ name: StatusName, category: StatusCategory }, { additionalProperties: false });

export const UpdateStatusBody = Type.Object(
  { name: Type.Optional(StatusName), category: Type.Optional(StatusCategory) },
  { additionalProperties: false },
);

export const PriorityRecord = Type.Object({ id: Type.Integer(), created_at: DateTime, name: Type.String() }, { title: 'Priority' });
