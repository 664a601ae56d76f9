// Client frames checked against their schemas (frames.schema.ts): a socket handler gets a typed
// frame, or the first problem as a message for its `error` frame. Parse, don't cast.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Static, TObject } from 'typebox';
import { buildAjv } from '../http/validation.ts';
import type { Parsed } from './socket-frames.ts';

const ajv = buildAjv({ coerceTypes: false, useDefaults: false });

/** One error of a frame, in words: `data.conversation_uuid must be a conversation uuid`. */
export function frameProblem(error: ErrorObject): string {
  const path = error.instancePath.slice(1).replaceAll('/', '.');
  const at = (name: unknown) => (path ? `${path}.${String(name)}` : String(name));
  if (error.keyword === 'required') return `${at(error.params['missingProperty'])} is required`;
  if (error.keyword === 'additionalProperties') return `${at(error.params['additionalProperty'])} is not allowed`;
  const parent: unknown = error.parentSchema;
  const description = typeof parent === 'object' && parent !== null && 'description' in parent ? parent.description : undefined;
  return typeof description === 'string'
    ? `${path || 'frame'} must be ${description}`
    : `${path || 'frame'} ${error.message ?? 'is not valid'}`;
}

/**
 * A checker of the frames one socket accepts, by type: the frame's type is known (else null, for
 * the socket's "unknown frame type" answer) and the frame matches its schema, or why not.
 */
export function frameChecker<S extends Record<string, TObject>>(schemas: S) {
  type Frame = Static<S[keyof S]>;
  const compiled = new Map<string, ValidateFunction<Frame>>();
  return (type: string, frame: Record<string, unknown>): Parsed<Frame> | null => {
    if (!Object.hasOwn(schemas, type)) return null;
    let validate = compiled.get(type);
    if (!validate) {
      validate = ajv.compile<Frame>(schemas[type] as object);
      compiled.set(type, validate);
    }
    if (validate(frame)) return { ok: true, value: frame };
    const [first] = validate.errors ?? [];
    return { ok: false, message: first ? frameProblem(first) : 'frame is not valid' };
  };
}
