// CSAT surveys (docs/api.md, "CSAT"): the one rule that creates a survey and sends it, the
// public read and answer, and the survey as the conversation record carries it.
//
// Import direction: conversations call this domain (the hook on a status change, the record's
// `csat`), so nothing here imports conversations at run time; the status change hands over its
// own appendMessage, the one entry point for a message on a conversation.
import type { AppendMessageInput, appendMessage, LockedConversation } from '../conversations/conversations.append.ts';
import type { DB } from '../db/database.ts';
import type { StatusCategory } from '../db/types.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError, NotFoundError } from '../errors.ts';
import { recordEvent } from '../events/events.service.ts';
import { textProblem } from '../http/text.ts';
import { channelHas } from '../inboxes/channels.ts';
import { prepareContent } from '../messages/messages.content.ts';
import { isFirstResolution } from '../reports/service-report.service.ts';
import * as q from './csat.queries.ts';
import { EDITABLE_DAYS, MAX_FEEDBACK } from './csat.schema.ts';

const DAY_MS = 24 * 3_600_000;
const COLOR = /^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$/;

/** Where the contact answers a survey (the page of csat.page.ts). */
export function surveyUrl(deps: AppDeps, uuid: string): string {
  return `${deps.config.baseUrl}/csat/${uuid}`;
}

export function editableUntil(createdAt: Date): Date {
  return new Date(createdAt.getTime() + EDITABLE_DAYS * DAY_MS);
}

/**
 * The survey message: an outgoing public message from the system (no agent) carrying
 * `meta.csat_uuid` (the widget shows a rating control for it) and the page's link (what an
 * email carries). `automatic`: it is not an agent reply (no first or last reply time, the
 * conversation's wait is untouched) and it reopens nothing.
 */
function surveyMessage(deps: AppDeps, uuid: string): AppendMessageInput {
  const url = surveyUrl(deps, uuid);
  const prepared = prepareContent(`<p>How did we do? <a href="${url}">Rate this conversation</a></p>`, 'html', 'content');
  return {
    type: 'outgoing',
    private: false,
    senderId: null,
    senderType: 'agent',
    content: prepared.content,
    textContent: `How did we do? Rate this conversation: ${url}`,
    contentType: 'html',
    meta: { csat_uuid: uuid },
    attachmentCount: 0,
    automatic: true,
  };
}

/**
 * The rule, called on the line after every status change, in its transaction with the
 * conversation locked (`conversation` already in its new status, `from` the category it
 * left): when the status category becomes resolved and the inbox has `csat_enabled`, the
 * conversation's one survey is created and sent. A conversation that has a survey gets no
 * other (the unique key on the conversation), so a reopen and a second resolve send nothing.
 */
export async function surveyOnStatusChange(
  deps: AppDeps,
  trx: DB,
  conversation: LockedConversation,
  from: StatusCategory,
  now: Date,
  append: typeof appendMessage,
): Promise<void> {
  if (from === 'resolved' || conversation.status_category !== 'resolved') return;
  // Only the first time (contract §14): a conversation resolved before, while its inbox had CSAT off, gets none.
  if (!(await isFirstResolution(trx, conversation.id))) return;
  if (!(await q.inboxWantsSurveys(trx, conversation.inbox_id))) return;
  const survey = await q.insertSurveyOnce(trx, conversation, now);
  if (survey) await append(deps, trx, conversation, surveyMessage(deps, survey.uuid), now);
}

type SurveyRow = Awaited<ReturnType<typeof q.findSurveysByConversationIds>>[number];

function toSurvey(row: Omit<SurveyRow, 'conversation_id'>) {
  return {
    uuid: row.uuid,
    conversation_uuid: row.conversation_uuid,
    created_at: row.created_at,
    sent_via: row.sent_via,
    rating: row.rating,
    feedback: row.feedback,
    submitted_at: row.submitted_at,
    editable_until: editableUntil(row.created_at),
  };
}

export type CsatSurveyRecord = ReturnType<typeof toSurvey>;

/** The surveys of many conversations in one statement, by conversation id (the conversation record's `csat`). */
export async function surveysByConversationIds(db: DB, conversationIds: readonly number[]): Promise<Map<number, CsatSurveyRecord>> {
  const rows = await q.findSurveysByConversationIds(db, conversationIds);
  return new Map(rows.map((row) => [row.conversation_id, toSurvey(row)]));
}

/** `GET /api/v1/csat/{uuid}`: what the contact's page shows. */
export async function getPublicSurvey(deps: AppDeps, uuid: string) {
  const row = await q.findPublicSurvey(deps.db, uuid);
  if (!row) throw new NotFoundError('Survey not found');
  const livechat = channelHas(row.inbox_channel, 'widget');
  const color = livechat && row.primary_color && COLOR.test(row.primary_color) ? row.primary_color : null;
  return {
    uuid: row.uuid,
    conversation_subject: row.conversation_subject,
    inbox_name: row.inbox_name,
    brand: {
      name: (livechat && row.brand_name?.trim()) || row.inbox_name,
      logo_url: (livechat && row.logo_url) || null,
      primary_color: color,
    },
    rating: row.rating,
    feedback: row.feedback,
    submitted_at: row.submitted_at,
    editable_until: editableUntil(row.created_at),
  };
}

export type PublicSurvey = Awaited<ReturnType<typeof getPublicSurvey>>;

export interface SurveyAnswer {
  rating: number;
  /** Omitted: the stored feedback stays. */
  feedback?: string;
}

/** Plain text: line ends made `\n`, trimmed; NUL, broken Unicode and more than MAX_FEEDBACK characters refused (400). */
function cleanFeedback(raw: string): string {
  const problem = textProblem(raw);
  if (problem) throw InputError.field('feedback', problem);
  const text = raw.replace(/\r\n?/g, '\n').trim();
  if (text.length > MAX_FEEDBACK) throw InputError.field('feedback', `must be at most ${MAX_FEEDBACK} characters`);
  return text;
}

/**
 * `POST /api/v1/csat/{uuid}/response` (and the page's form): the answer, or a change of it,
 * while the survey is open: EDITABLE_DAYS from its creation, then 422.
 */
export async function answerSurvey(deps: AppDeps, uuid: string, answer: SurveyAnswer): Promise<PublicSurvey> {
  if (!Number.isInteger(answer.rating) || answer.rating < 1 || answer.rating > 5)
    throw InputError.field('rating', 'must be an integer from 1 to 5');
  const feedback = answer.feedback === undefined ? undefined : cleanFeedback(answer.feedback);
  await deps.db.transaction().execute(async (trx) => {
    const survey = await q.lockSurvey(trx, uuid);
    if (!survey) throw new NotFoundError('Survey not found');
    const now = deps.clock.now();
    const until = editableUntil(survey.created_at);
    if (now.getTime() > until.getTime())
      throw new DataError(`This survey closed on ${until.toISOString()}: answers can be given or changed for ${EDITABLE_DAYS} days`);
    const saved = { rating: answer.rating, feedback: feedback ?? survey.feedback, submitted_at: now };
    await q.saveAnswer(trx, survey.id, saved);
    await recordEvent(
      trx,
      'conversation.csat_answered',
      { conversation_id: survey.conversation_id, conversation_uuid: survey.conversation_uuid, survey_uuid: uuid, ...saved },
      now,
    );
  });
  return getPublicSurvey(deps, uuid);
}
