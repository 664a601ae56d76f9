// The contact's survey page, `GET /csat/{uuid}` (docs/api.md, "CSAT"): server-rendered HTML
// with a plain form that POSTs back to the same address, so it works without JavaScript. It
// loads nothing from anywhere (the inbox's logo is left out for that reason): the CSP allows
// only its own inline style, by nonce, and form posts to itself. Everything shown is escaped.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { PublicSurvey } from './csat.service.ts';
import { MAX_FEEDBACK } from './csat.schema.ts';

const LABELS = ['Very bad', 'Bad', 'Okay', 'Good', 'Very good'] as const;
const DEFAULT_COLOR = '#2563eb';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface PageState {
  /** A note above the form: the thanks after an answer, or why it was refused. */
  notice?: { kind: 'thanks' | 'error'; text: string };
  /** What the contact typed, kept when their answer was refused. */
  draft?: { rating?: number; feedback?: string };
}

function styles(color: string): string {
  return `body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.5rem;margin:0 0 .25rem}.meta{color:#656d76;margin:0 0 1.5rem}
fieldset{border:0;padding:0;margin:0 0 1rem}legend{font-weight:600;margin-bottom:.5rem}
.ratings{display:flex;flex-wrap:wrap;gap:.5rem}.ratings label{border:1px solid #d0d7de;border-radius:6px;padding:.4rem .7rem;cursor:pointer}
label.block{display:block;font-weight:600;margin-bottom:.25rem}textarea{width:100%;box-sizing:border-box;font:inherit;min-height:6rem}
button{margin-top:1rem;background:${color};color:#fff;border:0;border-radius:6px;padding:.6rem 1.2rem;font:inherit;cursor:pointer}
.notice{padding:.6rem .8rem;border-radius:6px;margin-bottom:1rem}.thanks{background:#dafbe1}.error{background:#ffebe9}`;
}

function page(title: string, color: string, body: string): { html: string; nonce: string } {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${styles(color)}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
  return { html, nonce };
}

function ratingInputs(selected: number | null): string {
  return LABELS.map((label, i) => {
    const value = i + 1;
    const id = `rating-${value}`;
    const checked = selected === value ? ' checked' : '';
    return `<label for="${id}"><input type="radio" id="${id}" name="rating" value="${value}" required${checked}> ${value} · ${label}</label>`;
  }).join('\n');
}

function surveyBody(survey: PublicSurvey, open: boolean, state: PageState): string {
  const notice = state.notice
    ? `<p class="notice ${state.notice.kind}" role="${state.notice.kind === 'error' ? 'alert' : 'status'}">${escapeHtml(state.notice.text)}</p>`
    : '';
  const heading = `<h1>${escapeHtml(survey.brand.name)}</h1>
<p class="meta">Your conversation: ${escapeHtml(survey.conversation_subject || 'no subject')}</p>
${notice}`;
  if (!open) {
    const given = survey.rating === null ? 'No rating was given.' : `Your rating: ${survey.rating} of 5 (${LABELS[survey.rating - 1]}).`;
    return `${heading}<p>This survey is closed. ${escapeHtml(given)}</p>`;
  }
  const rating = state.draft?.rating ?? survey.rating;
  const feedback = state.draft?.feedback ?? survey.feedback;
  const until = survey.editable_until.toISOString().slice(0, 10);
  return `${heading}<form method="post">
<fieldset>
<legend>How would you rate this conversation?</legend>
<div class="ratings">
${ratingInputs(rating)}
</div>
</fieldset>
<label class="block" for="feedback">Anything you would like to tell us? (optional)</label>
<textarea id="feedback" name="feedback" maxlength="${MAX_FEEDBACK}">${escapeHtml(feedback)}</textarea>
<button type="submit">${survey.rating === null ? 'Send' : 'Update my answer'}</button>
<p class="meta">You can change your answer until ${until}.</p>
</form>`;
}

/** Writes a page on `reply`: the security headers every answer of this page carries. */
function send(reply: FastifyReply, status: number, built: { html: string; nonce: string }) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${built.nonce}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    )
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(built.html);
}

export function sendSurveyPage(reply: FastifyReply, status: number, survey: PublicSurvey, now: Date, state: PageState = {}) {
  const open = now.getTime() <= survey.editable_until.getTime();
  const color = survey.brand.primary_color ?? DEFAULT_COLOR;
  return send(reply, status, page(`Rate your conversation · ${survey.brand.name}`, color, surveyBody(survey, open, state)));
}

/** A page for a refusal without a survey to show (unknown survey, rate limit). */
export function sendRefusalPage(reply: FastifyReply, status: number, message: string) {
  return send(reply, status, page('Survey', DEFAULT_COLOR, `<h1>Survey</h1>\n<p role="alert">${escapeHtml(message)}</p>`));
}
