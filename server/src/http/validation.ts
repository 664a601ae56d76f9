// Two validators: request bodies are checked strictly (a number is not a string,
// and an unknown property is refused rather than silently dropped), while query
// strings, params and headers are coerced from text as usual.
import type { FastifyInstance } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives wrapped under Node's ESM loader.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

function build(options: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: true, useDefaults: true, allErrors: false, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

export function registerValidation(app: FastifyInstance): void {
  const strict = build({ coerceTypes: false, removeAdditional: false });
  const coercing = build({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
