import { Type } from 'typebox';
import { DateTime } from '../http/schemas.ts';

export const TagRecord = Type.Object(
  { id: Type.Integer(), created_at: DateTime, updated_at: DateTime, name: Type.String() },
  { title: 'Tag' },
);

export const TagBody = Type.Object(
  { name: Type.String({ description: 'Trimmed of surrounding whitespace, then 1..100 characters; unique case-insensitively' }) },
  { additionalProperties: false },
);
