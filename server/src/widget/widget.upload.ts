// Files sent from the widget (docs/api.md, "Live chat (widget API)"): every `files` part becomes
// an attachment of ONE new incoming message. Everything is checked before anything is stored:
// uploads disabled (403), no or empty file (400), over the inbox's size limit (413), an
// extension not allowed or content that does not match it (415), the conversation rules.
import type { FastifyRequest } from 'fastify';
import { appendMessage, contactMessage } from '../conversations/conversations.append.ts';
import type { AppDeps } from '../deps.ts';
import { InputError, NotFoundError, PermissionError } from '../errors.ts';
import { attachMediaToMessage, MAX_ATTACHMENTS, storeUploads } from '../media/media.service.ts';
import { type SpooledFile, uploadTmpDir, withReceivedFiles } from '../media/media.upload.ts';
import { prepareContent } from '../messages/messages.content.ts';
import type { WidgetCaller } from './widget.identity.ts';
import type { WidgetInbox } from './widget.inbox.ts';
import { assertMayReply, lockOwnConversation, ownConversation } from './widget.service.ts';
import { type ChatMessage, chatMessageFor } from './widget.shapes.ts';

const MIB = 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Signatures of the types whose content can be told from their first bytes. */
const SIGNATURES: Record<string, (head: Buffer) => boolean> = {
  png: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpg: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  jpeg: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  gif: (h) => ['GIF87a', 'GIF89a'].includes(h.subarray(0, 6).toString('latin1')),
  webp: (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP',
  pdf: (h) => h.subarray(0, 5).toString('latin1') === '%PDF-',
  zip: (h) => h.subarray(0, 2).toString('latin1') === 'PK',
  docx: (h) => h.subarray(0, 2).toString('latin1') === 'PK',
  xlsx: (h) => h.subarray(0, 2).toString('latin1') === 'PK',
  pptx: (h) => h.subarray(0, 2).toString('latin1') === 'PK',
  doc: (h) => h.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])),
  xls: (h) => h.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])),
  ppt: (h) => h.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])),
  mp4: (h) => h.subarray(4, 8).toString('latin1') === 'ftyp',
  mov: (h) => h.subarray(4, 8).toString('latin1') === 'ftyp' || ['moov', 'wide', 'mdat'].includes(h.subarray(4, 8).toString('latin1')),
  mp3: (h) => h.subarray(0, 3).toString('latin1') === 'ID3' || (h[0] === 0xff && ((h[1] ?? 0) & 0xe0) === 0xe0),
};
const TEXT_TYPES = new Set(['txt', 'csv', 'log']);
const IMAGE_SIGNATURES = ['png', 'jpg', 'gif', 'webp'] as const;

function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Whether the first bytes fit the extension: signatures where known, no NUL for text, and never an image under another name. */
export function contentMatches(extension: string, head: Buffer): boolean {
  const signature = SIGNATURES[extension];
  if (signature) return signature(head);
  if (TEXT_TYPES.has(extension)) return !head.includes(0);
  // An extension without a known signature must at least not hide an image the browser would render.
  return !IMAGE_SIGNATURES.some((kind) => SIGNATURES[kind]?.(head));
}

function refuseType(file: SpooledFile, reason: string): InputError {
  const label = JSON.stringify(file.filename.slice(0, 100));
  return new InputError(`files: ${label} ${reason}`, [{ field: 'files', reason: `${label} ${reason}` }], 415);
}

/** The checks that need no storage: type and size per file (the receiver has refused empty and oversized ones). */
function checkFiles(inbox: WidgetInbox, files: SpooledFile[]): void {
  if (files.length === 0) throw InputError.field('files', 'at least one file part named "files" is required');
  const allowed = new Set((inbox.config.file_upload?.allowed_extensions ?? []).map((ext) => ext.replace(/^\./, '').toLowerCase()));
  for (const file of files) {
    const extension = extensionOf(file.filename);
    if (!extension || !allowed.has(extension))
      throw refuseType(file, `has a file type that is not allowed (allowed: ${[...allowed].join(', ')})`);
    if (!contentMatches(extension, file.head)) throw refuseType(file, `does not contain what its .${extension} extension says`);
  }
}

/** The widget's upload: one new incoming message with every file attached. */
export async function uploadFromWidget(
  deps: AppDeps,
  request: FastifyRequest,
  inbox: WidgetInbox,
  caller: WidgetCaller,
): Promise<ChatMessage> {
  const upload = inbox.config.file_upload;
  if (upload?.enabled === false) throw new PermissionError('File upload is disabled for this inbox');
  const maxBytes = Math.floor((upload?.max_size_mb ?? 10) * MIB);
  const options = { tmpDir: uploadTmpDir(deps.config), maxFileBytes: maxBytes, maxFiles: MAX_ATTACHMENTS, fileField: 'files' };
  const messageId = await withReceivedFiles(request, options, async (form) => {
    const uuid = form.fields.get('conversation_uuid')?.trim() ?? '';
    if (uuid === '') throw InputError.field('conversation_uuid', 'is required');
    if (!UUID.test(uuid)) throw new NotFoundError('Conversation not found');
    const own = await ownConversation(deps, inbox, caller, uuid);
    assertMayReply(inbox, caller, own.status);
    checkFiles(inbox, form.files);
    // Streamed to storage all or nothing, as unattached uploads of the contact; the message
    // transaction attaches them. Should it fail, they stay unattached and are purged after a day.
    const uploads = await storeUploads(deps, form.files, caller.userId);
    return deps.db.transaction().execute(async (trx) => {
      const conversation = await lockOwnConversation(trx, inbox, caller, own.uuid);
      const now = deps.clock.now();
      const prepared = prepareContent('', 'text', 'message');
      const message = await appendMessage(
        deps,
        trx,
        conversation,
        contactMessage(caller.userId, prepared, { contentType: 'text', attachmentCount: uploads.length }),
        now,
      );
      await attachMediaToMessage(deps, trx, { mediaUuids: uploads.map((u) => u.uuid), uploaderId: caller.userId, messageId: message.id });
      return message.id;
    });
  });
  const sent = await chatMessageFor(deps, messageId);
  if (!sent) throw new Error(`message ${messageId} is not readable right after it was sent`);
  return sent;
}
