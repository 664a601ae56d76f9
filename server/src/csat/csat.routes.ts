// CSAT (docs/api.md, "CSAT"): the public API a contact's survey is read and answered through,
// and the contact's page (`/csat/{uuid}`, outside /api/v1) with its plain form post. No
// credentials: the survey's random uuid is the only key. Every route is counted against the
// per-address limit of the widget's public routes (WIDGET_RATE_LIMIT_PER_MINUTE), on its own counter.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { AppError, InputError, NotFoundError, RateLimitError } from '../errors.ts';
import { Envelope, errors, ok } from '../http/schemas.ts';
import { findUnstorableText, unstorableTextError } from '../http/text.ts';
import { enforceLimit, publicLimiter } from '../http/public-limits.ts';
import { type PageState, sendRefusalPage, sendSurveyPage } from './csat.page.ts';
import { CsatParams, CsatResponseBody, MAX_FEEDBACK, PublicCsatSurvey } from './csat.schema.ts';
import { answerSurvey, getPublicSurvey } from './csat.service.ts';

/** The largest form the page posts: a rating and MAX_FEEDBACK characters, percent-encoded (up to 9 bytes each). */
const FORM_LIMIT = 1024 + MAX_FEEDBACK * 9;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form's fields: each at most once, nothing else. */
function parseForm(body: string): { rating?: string; feedback?: string } {
  const params = new URLSearchParams(body);
  const form: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key !== 'rating' && key !== 'feedback') throw InputError.field(key, 'is not a field of this form');
    if (key in form) throw InputError.field(key, 'must be sent once');
    form[key] = value;
  }
  const found = findUnstorableText(form);
  if (found) throw unstorableTextError('body', found);
  return form;
}

/** The page's rating field: "1" to "5" exactly. */
function formRating(value: unknown): number {
  if (typeof value !== 'string' || !/^[1-5]$/.test(value)) throw InputError.field('rating', 'choose a rating from 1 to 5');
  return Number(value);
}

/** The page's errors as a page: the survey (with the contact's draft) when there is one, else a short refusal. */
function pageErrorHandler(deps: AppDeps) {
  return async (error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const status = error instanceof AppError ? error.statusCode : ((error as FastifyError).statusCode ?? 500);
    if (status >= 500) throw error;
    const message = error instanceof AppError ? error.message : 'The form could not be read';
    if (error instanceof RateLimitError) reply.header('retry-after', String(error.retryAfterSeconds ?? 60));
    const { uuid } = request.params as { uuid: string };
    if (status === 400 && UUID.test(uuid)) {
      const survey = await getPublicSurvey(deps, uuid).catch(() => null);
      if (survey) {
        const form = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, string>) : {};
        const draft = { feedback: typeof form['feedback'] === 'string' ? form['feedback'].slice(0, MAX_FEEDBACK) : undefined };
        return sendSurveyPage(reply, 400, survey, deps.clock.now(), { notice: { kind: 'error', text: message }, draft });
      }
    }
    return sendRefusalPage(reply, status, message);
  };
}

export function csatRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const perAddress = publicLimiter(deps, 'csat', deps.config.widgetRateLimitPerMinute);
    app.addHook('onRequest', async (request) => {
      await enforceLimit(perAddress, request.ip, 'requests from this address');
    });

    const tags = ['CSAT'];
    const config = { auth: 'public' } as const;
    app.get(
      '/api/v1/csat/:uuid',
      {
        config,
        schema: {
          tags,
          summary: 'Read a CSAT survey (for the contact answering it)',
          params: CsatParams,
          response: { 200: Envelope(PublicCsatSurvey), ...errors(404, 429) },
        },
      },
      async (request) => ok(await getPublicSurvey(deps, request.params.uuid)),
    );
    app.post(
      '/api/v1/csat/:uuid/response',
      {
        config,
        schema: {
          tags,
          summary: 'Answer a CSAT survey, or change the answer (for 7 days after the survey was sent; then 422)',
          params: CsatParams,
          body: CsatResponseBody,
          response: { 200: Envelope(PublicCsatSurvey), ...errors(400, 404, 422, 429) },
        },
      },
      async (request) => ok(await answerSurvey(deps, request.params.uuid, request.body)),
    );

    // The contact's page: HTML, not in the OpenAPI document.
    await app.register(async (page) => {
      // Only the form's own encoding: a JSON or text body is a 415, never parsed into other shapes.
      page.removeAllContentTypeParsers();
      page.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: FORM_LIMIT },
        (_request, body, done) => {
          try {
            done(null, parseForm(typeof body === 'string' ? body : body.toString('utf8')));
          } catch (error) {
            done(error as Error, undefined);
          }
        },
      );
      const pageRoute = { config, schema: { hide: true }, errorHandler: pageErrorHandler(deps) };
      const uuidOf = (request: FastifyRequest): string => {
        const { uuid } = request.params as { uuid: string };
        if (!UUID.test(uuid)) throw new NotFoundError('Survey not found');
        return uuid.toLowerCase();
      };
      page.get('/csat/:uuid', pageRoute, async (request, reply) =>
        sendSurveyPage(reply, 200, await getPublicSurvey(deps, uuidOf(request)), deps.clock.now()),
      );
      page.post('/csat/:uuid', pageRoute, async (request, reply) => {
        const uuid = uuidOf(request);
        const form = (request.body ?? {}) as Record<string, unknown>;
        const feedback = form['feedback'] ?? '';
        if (typeof feedback !== 'string') throw InputError.field('feedback', 'must be text');
        const survey = await answerSurvey(deps, uuid, { rating: formRating(form['rating']), feedback });
        const state: PageState = { notice: { kind: 'thanks', text: 'Thank you: your answer was saved.' } };
        return sendSurveyPage(reply, 200, survey, deps.clock.now(), state);
      });
    });
  };
}
